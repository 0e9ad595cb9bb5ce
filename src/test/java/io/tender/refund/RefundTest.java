package io.tender.refund;

import io.tender.api.Rejected;
import io.tender.auth.Mode;
import io.tender.payment.CapturedPayments.Captured;
import io.tender.payment.PaymentStatus;
import io.tender.processor.ProcessorOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The refund aggregate's rules: what each processor answer makes of a refund, and which events it sends. */
class RefundTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private static Refund draft() {
        var terms = new Refund.Terms("rfd_1", "mer_1", Mode.TEST, "pay_1", 2500, "ZAR",
                RefundReason.REQUESTED_BY_CUSTOMER, Map.of(), "pay_1:authorize", NOW);
        return Refund.restored(terms, Refund.Status.DRAFT, null, Refund.Call.PENDING, "rfd_1:refund", null, NOW, 1);
    }

    @ParameterizedTest(name = "{0}: {1}, {2}, {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # answer                 | status    | call      | failure reason            | events
            approved                 | SUCCEEDED | SUCCEEDED |                           | CREATED SUCCEEDED
            accepted                 | PENDING   | ACCEPTED  |                           | CREATED
            declined                 | FAILED    | FAILED    | declined                  | CREATED FAILED
            closed account           | FAILED    | FAILED    | expired_or_closed_account | CREATED FAILED
            never received           | FAILED    | FAILED    | unknown                   | CREATED FAILED
            processing error         | FAILED    | FAILED    | unknown                   | CREATED FAILED
            """)
    void aDraftSettledByEachAnswer(String answer, Refund.Status status, Refund.Call call, String failureReason,
                                   String events) {
        Refund refund = draft();

        List<Refund.Transition> transitions = refund.settle(outcome(answer), NOW);

        assertThat(refund.status()).isEqualTo(status);
        assertThat(refund.call()).isEqualTo(call);
        assertThat(refund.failureReason()).isEqualTo(failureReason);
        assertThat(transitions).extracting(Enum::name).containsExactly(events.split(" "));
    }

    @Test
    void anAcceptedRefundKeepsTheProcessorsReferenceWhenItsStatusAnswerCarriesNone() {
        Refund refund = draft();
        refund.settle(new ProcessorOutcome.Accepted(Map.of("refund_reference", "re_42")), NOW);

        List<Refund.Transition> transitions = refund.settle(new ProcessorOutcome.Approved(2500, "ZAR", null, Map.of()),
                NOW.plusSeconds(5));

        assertThat(refund.status()).isEqualTo(Refund.Status.SUCCEEDED);
        assertThat(refund.processorReference()).isEqualTo(Map.of("refund_reference", "re_42"));
        assertThat(transitions).containsExactly(Refund.Transition.SUCCEEDED);
    }

    @Test
    void anUnknownOutcomeShowsTheRefundPendingOnceAndNeverRecordsTheUnknownAnswer() {
        Refund refund = draft();

        assertThat(refund.markUnknown(NOW)).containsExactly(Refund.Transition.CREATED);
        assertThat(refund.status()).isEqualTo(Refund.Status.PENDING);
        assertThat(refund.call()).isEqualTo(Refund.Call.UNKNOWN);
        assertThat(refund.markUnknown(NOW)).as("created once").isEmpty();
        assertThatThrownBy(() -> refund.settle(new ProcessorOutcome.Unknown("timeout"), NOW))
                .isInstanceOf(IllegalStateException.class);
        assertThat(refund.settle(outcome("approved"), NOW)).containsExactly(Refund.Transition.SUCCEEDED);
    }

    @Test
    void aSettledRefundIsNeverSettledAgain() {
        Refund refund = draft();
        refund.settle(outcome("declined"), NOW);

        assertThatThrownBy(() -> refund.settle(outcome("approved"), NOW)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> refund.markUnknown(NOW)).isInstanceOf(IllegalStateException.class);
        assertThat(refund.status()).isEqualTo(Refund.Status.FAILED);
    }

    @Test
    void aReissuedRefundGoesUnderAFreshKey() {
        Refund refund = draft();

        refund.reissue(NOW);

        assertThat(refund.processorKey()).isEqualTo("rfd_1:refund~2");
    }

    /**
     * What may be refunded, one rule for the API's refunds and the dashboard's refund form: the captured money less
     * every refund that did not fail (a pending one holds its amount back), and nothing of a payment that is not
     * succeeded, captured nothing, or no processor took. {@code asked} {@code all}: the refund's amount left out.
     */
    @ParameterizedTest(name = "{0}, {1} paid, {2} committed, {3} asked: {4} refundable, {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # status   | paid  | committed | asked | refundable | refund of, or refusal
            succeeded  | 10000 | 0         | all   | 10000      | 10000
            succeeded  | 10000 | 0         | 2500  | 10000      | 2500
            succeeded  | 10000 | 0         | 10000 | 10000      | 10000
            succeeded  | 10000 | 0         | 10001 | 10000      | RefundOverRefundable
            succeeded  | 10000 | 1052      | all   | 8948       | 8948
            succeeded  | 10000 | 1052      | 8948  | 8948       | 8948
            succeeded  | 10000 | 1052      | 8949  | 8948       | RefundOverRefundable
            succeeded  | 10000 | 10000     | all   | 0          | RefundOverRefundable
            succeeded  | 10000 | 10000     | 1     | 0          | RefundOverRefundable
            succeeded  | 4000  | 0         | all   | 4000       | 4000
            succeeded  | 0     | 0         | all   | 0          | NothingCaptured
            pending    | 0     | 0         | all   | 0          | NotRefundable
            failed     | 0     | 0         | 1     | 0          | NotRefundable
            cancelled  | 0     | 0         | all   | 0          | NotRefundable
            expired    | 0     | 0         | all   | 0          | NotRefundable
            by billing | 10000 | 0         | all   | 0          | NoProcessorPayment
            """)
    void whatMayBeRefundedIsTheCapturedMoneyLessEveryRefundNotFailed(String status, long paid, long committed,
                                                                    String asked, long refundable, String outcome) {
        boolean billing = status.equals("by billing");
        var payment = new Captured("pay_1", "mer_1", Mode.TEST, "ZAR",
                billing ? PaymentStatus.SUCCEEDED : PaymentStatus.valueOf(status.toUpperCase()), paid,
                billing ? null : "pay_1:authorize", 2);
        Long amount = asked.equals("all") ? null : Long.valueOf(asked);

        assertThat(Refund.refundable(payment, committed)).isEqualTo(refundable);
        try {
            Refund drafted = Refund.draft("rfd_1", payment, committed, amount, null, Map.of(), NOW);
            assertThat(String.valueOf(drafted.amount())).isEqualTo(outcome);
            assertThat(drafted.terms().authorizationKey()).isEqualTo("pay_1:authorize");
        } catch (Rejected refused) {
            assertThat(refused.rejection().getClass().getSimpleName()).isEqualTo(outcome);
        }
    }

    private static ProcessorOutcome outcome(String answer) {
        return switch (answer) {
            case "approved" -> new ProcessorOutcome.Approved(2500, "ZAR", null, Map.of("refund_reference", "re_1"));
            case "accepted" -> new ProcessorOutcome.Accepted(Map.of("refund_reference", "re_1"));
            case "declined" -> new ProcessorOutcome.Declined("refund_declined", "declined", "Declined");
            case "closed account" -> new ProcessorOutcome.Declined("refund_declined", "expired_or_closed_account",
                    "The account is closed");
            case "never received" -> ProcessorOutcome.Declined.notReceived("No call under this key");
            case "processing error" -> new ProcessorOutcome.Declined("processing_error", null, "Failed");
            default -> throw new IllegalArgumentException(answer);
        };
    }
}
