package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.api.ApiException;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Every row of decisions §6's sandbox table, paid through the checkout's application API and read back over HTTP:
 * approvals with their card details, declines with {@code last_payment_error} and a retry that succeeds, 3-D Secure
 * approved and declined, the card that times out after approving (resolved by the status query), bank pages, app
 * approvals that arrive by themselves, and refusals before anything is sent.
 */
class SandboxPaymentsIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Collect collect;

    @BeforeEach
    void merchant() {
        collect = new Collect(merchants.create().test(), checkout);
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @CsvSource({
            "4242424242424242, VISA, CREDIT",
            "5555555555554444, MASTERCARD, DEBIT",
            "4000000000000119, VISA, CREDIT",
    })
    void approvedCardsSucceedWithTheirDetailsAndTheSessionIsPaid(String number, String scheme, String funding) {
        JsonNode session = collect.session(15000);
        Checkout.Attempt attempt = collect.payByCard(session, number);

        assertThat(attempt.status()).isEqualTo("succeeded");
        JsonNode payment = collect.payment(attempt);
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("intent").stringValue()).isEqualTo("payment");
        assertThat(payment.get("capture_method").stringValue()).isEqualTo("automatic");
        assertThat(payment.get("authorized_amount").longValue()).isEqualTo(15000);
        assertThat(payment.get("paid_amount").longValue()).isEqualTo(15000);
        assertThat(payment.get("voided_amount").longValue()).isZero();
        assertThat(payment.get("payment_session_id")).isEqualTo(session.get("id"));
        JsonNode card = payment.get("payment_method_details").get("card");
        assertThat(payment.get("payment_method_details").get("type").stringValue()).isEqualTo("card");
        assertThat(card.get("scheme").stringValue()).isEqualTo(scheme);
        assertThat(card.get("type").stringValue()).isEqualTo(funding);
        assertThat(card.get("bin").stringValue()).isEqualTo(number.substring(0, 6));
        assertThat(card.get("last4").stringValue()).isEqualTo(number.substring(12));
        assertThat(card.get("exp_month").intValue()).isEqualTo(12);
        assertThat(card.get("exp_year").intValue()).isEqualTo(Collect.EXP_YEAR);
        assertThat(card.propertyNames()).containsExactlyInAnyOrder("scheme", "type", "bin", "last4", "exp_month", "exp_year");

        JsonNode paid = collect.refreshed(session);
        assertThat(paid.get("status").stringValue()).isEqualTo("completed");
        assertThat(paid.get("payment_outcome").stringValue()).isEqualTo("paid");
        assertThat(paid.get("payment_status").stringValue()).isEqualTo("paid");
        assertThat(paid.get("payment_id").stringValue()).isEqualTo(attempt.paymentId());
    }

    @Test
    void theCardThatTimesOutAfterApprovingIsResolvedByTheStatusQueryAndSentOnce() {
        JsonNode session = collect.session(3000);
        Checkout.Attempt attempt = collect.payByCard(session, SandboxProcessor.TIMES_OUT_AFTER_APPROVING);

        assertThat(attempt.status()).isEqualTo("succeeded");
        assertThat(jdbc.sql("select count(*) from sandbox_processor_operations where operation_key like ?")
                .param(attempt.paymentId() + ":%").query(Long.class).single()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
            "4000000000000002, generic_decline",
            "4000000000009995, insufficient_funds",
    })
    void aDeclinedCardFailsTheAttemptAndTheCustomerMayRetry(String number, String declineCode) {
        JsonNode session = collect.session(2500);
        Checkout.Attempt declined = collect.payByCard(session, number);

        assertThat(declined.status()).isEqualTo("failed");
        JsonNode payment = collect.payment(declined);
        assertThat(payment.get("status").stringValue()).isEqualTo("failed");
        assertThat(payment.get("last_payment_error").get("error_code").stringValue()).isEqualTo("card_declined");
        assertThat(payment.get("last_payment_error").get("decline_code").stringValue()).isEqualTo(declineCode);
        assertThat(payment.get("last_payment_error").has("timestamp")).isTrue();
        JsonNode pending = collect.refreshed(session);
        assertThat(pending.get("status").stringValue()).isEqualTo("active");
        assertThat(pending.get("payment_outcome").stringValue()).isEqualTo("pending");
        assertThat(pending.get("last_payment_error").get("decline_code").stringValue()).isEqualTo(declineCode);

        Checkout.Attempt retry = collect.payByCard(session, "4242424242424242");
        assertThat(retry.status()).isEqualTo("succeeded");
        assertThat(retry.paymentId()).isNotEqualTo(declined.paymentId());
        JsonNode paid = collect.refreshed(session);
        assertThat(paid.get("payment_outcome").stringValue()).isEqualTo("paid");
        assertThat(paid.has("last_payment_error")).isFalse();
        assertThat(collect.get("/collect/payments?payment_session=" + session.get("id").stringValue()).get("data"))
                .hasSize(2);
    }

    @Test
    void aSessionTakesAtMostFiveAttempts() {
        JsonNode session = collect.session(100);
        for (int i = 0; i < 5; i++) {
            assertThat(collect.payByCard(session, "4000000000000002").status()).isEqualTo("failed");
        }
        var refused = catchThrowableOfType(ApiException.class, () -> collect.payByCard(session, "4242424242424242"));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.getMessage()).contains("at most 5 attempts");
    }

    @Test
    void threeDSecureWaitsForTheCustomerThenApprovesOrDeclines() {
        JsonNode session = collect.session(4000);
        String ckt = session.get("checkout_session_id").stringValue();
        Checkout.Attempt waiting = collect.payByCard(session, "4000000000003220");
        assertThat(waiting.status()).isEqualTo("pending");
        assertThat(waiting.action()).isEqualTo("three_d_secure");
        assertThat(collect.payment(waiting).get("status").stringValue()).isEqualTo("pending");
        assertThat(checkout.attempt(ckt)).get().extracting(Checkout.Attempt::status).isEqualTo("pending");

        Checkout.Attempt declined = checkout.decideSandbox(ckt, SandboxProcessor.Decision.DECLINE).orElseThrow();
        assertThat(declined.status()).isEqualTo("failed");
        assertThat(declined.error().declineCode()).isEqualTo("authentication_failed");

        collect.payByCard(session, "4000000000003220");
        Checkout.Attempt approved = checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow();
        assertThat(approved.status()).isEqualTo("succeeded");
        assertThat(collect.refreshed(session).get("payment_outcome").stringValue()).isEqualTo("paid");
    }

    @Test
    void payByBankShowsTheSandboxBankPage() {
        JsonNode session = collect.session(6000);
        String ckt = session.get("checkout_session_id").stringValue();
        Checkout.Attempt waiting = checkout.payByBank(ckt, "Sandbox Bank");
        assertThat(waiting.action()).isEqualTo("bank_login");
        assertThat(checkout.decideSandbox(ckt, SandboxProcessor.Decision.CANCEL).orElseThrow().status()).isEqualTo("failed");
        checkout.payByBank(ckt, "Sandbox Bank");
        Checkout.Attempt approved = checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow();
        assertThat(approved.status()).isEqualTo("succeeded");
        JsonNode payment = collect.payment(approved);
        assertThat(payment.get("payment_method_details").get("type").stringValue()).isEqualTo("pay_by_bank");
        assertThat(payment.get("payment_method_details").get("pay_by_bank").get("bank").stringValue()).isEqualTo("Sandbox Bank");
    }

    @ParameterizedTest
    @CsvSource({"capitec_pay", "mobile_money"})
    void phoneApprovalsArriveByThemselvesAndNumbersEndingIn0002AreDeclined(String type) {
        JsonNode session = collect.session(800);
        String ckt = session.get("checkout_session_id").stringValue();
        PaymentMethodType method = PaymentMethodType.fromWire(type).orElseThrow();
        assertThat(checkout.payByPhone(ckt, method, "+27820000002").status()).isEqualTo("failed");

        Checkout.Attempt waiting = checkout.payByPhone(ckt, method, "+27821234567");
        assertThat(waiting.action()).isEqualTo("app_approval");
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(300))
                .until(() -> checkout.attempt(ckt).orElseThrow().status().equals("succeeded"));
        JsonNode payment = collect.payment(waiting);
        assertThat(payment.get("payment_method_details").get(type).get("phone_number").stringValue()).isEqualTo("********4567");
    }

    @Test
    void invalidCardsAreRefusedBeforeAnythingIsSent() {
        JsonNode session = collect.session(100);
        String ckt = session.get("checkout_session_id").stringValue();
        var luhn = catchThrowableOfType(ApiException.class, () -> checkout.payByCard(ckt, "4242424242424241", 12, Collect.EXP_YEAR, "123"));
        assertThat(luhn.errors()).extracting(e -> e.field()).containsExactly("card_number");
        var expired = catchThrowableOfType(ApiException.class, () -> checkout.payByCard(ckt, "4242424242424242", 1, 2020, "123"));
        assertThat(expired.errors()).extracting(e -> e.field()).containsExactly("expiry_date");
        var phone = catchThrowableOfType(ApiException.class, () -> checkout.payByPhone(ckt, PaymentMethodType.MOBILE_MONEY, "+254700000001"));
        assertThat(phone.errors()).extracting(e -> e.field()).containsExactly("phone_number");
        assertThat(collect.refreshed(session).get("payment_outcome").stringValue()).isEqualTo("not_started");
        assertThat(collect.get("/collect/payments?payment_session=" + session.get("id").stringValue()).get("data")).isEmpty();
    }

    @Test
    void aZeroAmountSessionVerifiesTheCard() {
        JsonNode session = collect.session(0);
        Checkout.Attempt attempt = collect.payByCard(session, "4242424242424242");
        JsonNode payment = collect.payment(attempt);
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("intent").stringValue()).isEqualTo("payment_method_verification");
        assertThat(payment.get("authorized_amount").longValue()).isZero();
        assertThat(collect.refreshed(session).get("payment_outcome").stringValue()).isEqualTo("payment_method_verified");
    }
}
