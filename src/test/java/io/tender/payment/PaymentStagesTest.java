package io.tender.payment;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status an API version before 2026-06-01 reads for each payment state (decisions §15): the stages of
 * {@code pending} come from the payment's open authorization; a payment not in flight has no stage (its status reads
 * the same in every version).
 */
class PaymentStagesTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            pending authorization      | initiating
            pending verification       | initiating
            waiting for the customer   | pending_action
            waiting, void pending      | pending_action
            sent, outcome unknown      | processing
            draft                      | none
            succeeded automatic        | none
            capture pending            | none
            failed                     | none
            expired                    | none
            """)
    void anInFlightPaymentReadsTheStageItIsAt(String state, String stage) {
        Payment payment;
        if (state.equals("sent, outcome unknown")) {
            payment = PaymentTest.given("pending authorization");
            payment.markUnknown(Instant.parse("2026-05-20T08:25:31Z"));
        } else {
            payment = PaymentTest.given(state);
        }
        assertThat(PaymentStages.stage(payment).map(s -> s.wire()).orElse("none")).isEqualTo(stage);
    }
}
