package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sessions past {@code expires_at} end through the recovery job (decisions §6): {@code expired} with
 * {@code payment_outcome} {@code unpaid} and {@code payment_session.expired}; an attempt still waiting for the
 * customer is cancelled at the processor and its payment ends {@code expired} ({@code payment.expired}); a declined
 * attempt stays {@code failed}; a paid session is untouched.
 */
class SessionExpiryIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    @Autowired
    private PaymentRecovery recovery;

    private Collect collect;

    @BeforeEach
    void merchant() {
        collect = new Collect(merchants.create().test(), checkout);
    }

    private void pastExpiry(JsonNode session) {
        jdbc.sql("update payment_sessions set expires_at = now() - interval '1 second' where id = ?")
                .param(session.get("id").stringValue()).update();
    }

    @Test
    void anUnpaidSessionExpiresAndAWaitingAttemptIsCancelledAtTheProcessor() {
        JsonNode untouched = collect.session(100);
        JsonNode declined = collect.session(200);
        Checkout.Attempt failed = collect.payByCard(declined, "4000000000000002");
        JsonNode waiting = collect.session(300);
        Checkout.Attempt threeDs = collect.payByCard(waiting, "4000000000003220");
        JsonNode paid = collect.session(400);
        collect.payByCard(paid, "4242424242424242");
        for (JsonNode session : new JsonNode[]{untouched, declined, waiting, paid}) {
            pastExpiry(session);
        }

        recovery.expireSessions(Instant.now());

        for (JsonNode session : new JsonNode[]{untouched, declined, waiting}) {
            JsonNode expired = collect.refreshed(session);
            assertThat(expired.get("status").stringValue()).isEqualTo("expired");
            assertThat(expired.get("payment_outcome").stringValue()).isEqualTo("unpaid");
            assertThat(PaymentEventsIT.types(jdbc, session.get("id").stringValue())).endsWith("payment_session.expired");
        }
        assertThat(collect.payment(failed).get("status").stringValue()).isEqualTo("failed");
        assertThat(collect.payment(threeDs).get("status").stringValue()).isEqualTo("expired");
        assertThat(PaymentEventsIT.types(jdbc, threeDs.paymentId())).containsExactly("payment.expired");
        assertThat(jdbc.sql("select outcome->>'decline_code' from sandbox_processor_operations where operation_key = ?")
                .param(threeDs.paymentId() + ":authorize").query(String.class).single()).isEqualTo("cancelled");
        assertThat(collect.refreshed(paid).get("status").stringValue()).isEqualTo("completed");
    }
}
