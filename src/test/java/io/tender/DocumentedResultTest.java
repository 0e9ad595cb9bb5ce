package io.tender;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tours' matcher of documented results ({@link DocumentedResult}) as a table: what a {@code # -> NNN} comment
 * shows against what the command printed (or, printing nothing, the body it was answered).
 */
class DocumentedResultTest {

    @ParameterizedTest(name = "{0} against {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            # documented                                          | printed                                                | answered
            {"id": "rdm_…", "status": "confirmed"}                | {"id": "rdm_0193f1c2a4b5", "status": "confirmed"}      |
            {"id": "rdm_…", "status": "confirmed"}                | `{\n  "id": "rdm_1",\n  "status": "confirmed"\n}`      |
            {"status": "confirmed", "id": "rdm_…"}                | {"id": "rdm_1", "status": "confirmed"}                 |
            {"status": "confirmed", …}                            | {"id": "rdm_1", "status": "confirmed", "version": 3}   |
            {…, "count": 2}                                       | {"period": "month", "count": 2}                        |
            7500                                                  | 7500                                                   |
            -2000: overpayment allowed, so the extra is credit    | -2000                                                  |
            "succeeded": its payments stay                        | "succeeded"                                            |
            {"status": "paid", "payment_id": "pay_…"}; the link   | {"status": "paid", "payment_id": "pay_9"}              |
            ["INV-2026-0042"]                                     | ["INV-2026-0042"]                                      |
            ["rdm_…", …]: newest first                            | ["rdm_2", "rdm_1"]                                     |
            [{"status": "failed"}, …]                             | [{"status": "failed"}]                                 |
            "A paid bill cannot be voided."                       | "A paid bill cannot be voided."                        |
            {"paid_amount": 5000, "version": 3}: a partial one    | {"paid_amount": 5000.0, "version": 3}                  |
            null                                                  | null                                                   |
            rdm_…: its events are created … confirmed             | rdm_0193f1c2                                           |
            idempotent-replayed: true                             | idempotent-replayed: true                              |
            paid after about … s: until the customer approved it  | paid after about 4 s                                   |
            the session: "payment_outcome":"paid"                 |                                                        | {"payment_outcome": "paid"}
            {"id":"ps_…","payment_outcome":"not_started",…}       |                                                        | {"id": "ps_1", "payment_outcome": "not_started", "version": 1}
                                                                  |                                                        | {"id": "ps_1"}
            """)
    void aResultAsDocumentedAgrees(String documented, String printed, String answered) {
        assertThat(DocumentedResult.disagreement(text(documented), text(printed), text(answered))).isEmpty();
    }

    @ParameterizedTest(name = "{0} against {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            # documented                               | printed                                       | answered | why
            {"id": "rdm_…", "status": "confirmed"}     | {"id": "rdm_1", "status": "failed"}           |          | $.status is "failed", not "confirmed"
            7500                                       | 7501                                          |          | $ is 7501, not 7500
            {"id": "rdm_…", "status": "confirmed"}     | {"id": "rdm_1", "status": "confirmed", "v": 3} |         | $ also has "v"
            {"id": "rdm_…", "status": "confirmed"}     | {"status": "confirmed"}                       |          | $ has no "id"
            {"id": "bcus_01a2…", …}                    | {"id": "bcus_0193f1c2"}                       |          | $.id is "bcus_0193f1c2", not "bcus_01a2…"
            ["pay_…"]                                  | ["pay_1", "pay_2"]                            |          | $ is ["pay_1","pay_2"], not ["pay_…"]
            [{"status": "succeeded"}, …]               | [{"status": "failed"}]                        |          | $ is [{"status":"failed"}], not
            "paid"                                     | paid                                          |          | the command printed paid but its comment shows
            the redemption and its history             | {"id": "rdm_1"}                               |          | its comment shows no such value
            7500 7501                                  | 7500                                          |          | is followed by
            amount: it cannot be changed               | currency                                      |          | the command printed currency
            {"id":"ps_…","status":"active"}            |                                               | {"id": "ps_1", "status": "expired"} | the command answered
            {"id":"ps_…"}                              |                                               |          | printed nothing and the service answered no body
            """)
    void aResultThatDiffersIsExplained(String documented, String printed, String answered, String why) {
        assertThat(DocumentedResult.disagreement(text(documented), text(printed), text(answered)))
                .hasValueSatisfying(explained -> assertThat(explained).contains(why));
    }

    @Test
    void theIssuesExamplesFailWhenTheServiceAnswersOtherwise() {
        // Issue 33: "# -> 201 … "confirmed"" and "# -> 200 7500" were never compared.
        assertThat(DocumentedResult.disagreement("{\"id\": \"rdm_…\", \"status\": \"confirmed\"}",
                "{\"id\": \"rdm_1\", \"status\": \"failed\"}", "")).isPresent();
        assertThat(DocumentedResult.disagreement("7500", "12500", "")).isPresent();
    }

    private static String text(String cell) {
        return cell == null ? "" : cell.replace("\\n", "\n");
    }
}
