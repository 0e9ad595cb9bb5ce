package io.tender.dashboard;

import io.tender.checkout.Checkout;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.YearMonth;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payment's actions on the dashboard (decisions §11), over real HTTP against payments really taken through the
 * sandbox: each asks for a confirmation first; confirmed, it runs the API's own flow, so the payment and its refunds
 * read through the API show it; the same form sent twice acts once; a refusal shows the API's reason; each action
 * done is one row in the audit log; a viewer sees no actions.
 */
class DashboardPaymentActionsIT extends ApiIntegrationTest {

    private static final Pattern KEYS = Pattern.compile(
            "action=\"/dashboard/test/payments/pay_[A-Za-z0-9]+/(capture|void|refund)\"[^>]*>[\\s\\S]*?name=\"idempotency_key\" value=\"([0-9a-f-]{36})\"");

    @Autowired
    private Checkout checkout;

    private Merchant merchant;
    private DashboardClient developer;

    @BeforeEach
    void merchantWithADeveloper() {
        merchant = merchants.create();
        developer = DashboardClient.member(base(), merchants, merchant, "developer", "127.0.0.71");
    }

    /** A card payment of ZAR 100.00 paid in the sandbox; {@code manual}: authorized, waiting for a capture. */
    private String paid(boolean manual) {
        String options = manual ? ",\"options\":{\"payment_method_options\":{\"card\":{\"capture_method\":\"manual\"}}}" : "";
        JsonNode session = merchant.test().post("/collect/payment_sessions",
                "{\"amount\":10000,\"currency\":\"ZAR\"" + options + "}").send().json();
        var attempt = checkout.payByCard(session.get("checkout_session_id").stringValue(), "4242424242424242", 12,
                YearMonth.now().getYear() + 2, "123");
        assertThat(attempt.status()).isEqualTo("succeeded");
        return attempt.paymentId();
    }

    private Map<String, String> formKeys(String paymentId) {
        var page = developer.get("/dashboard/test/payments/" + paymentId);
        assertThat(page.status()).isEqualTo(200);
        Map<String, String> keys = new HashMap<>();
        Matcher m = KEYS.matcher(page.body());
        while (m.find()) {
            keys.put(m.group(1), m.group(2));
        }
        return keys;
    }

    private JsonNode apiPayment(String id) {
        return merchant.test().get("/collect/payments/" + id).send().json();
    }

    private long audited(String action, String paymentId) {
        return jdbc.sql("select count(*) from dashboard_audit_log where action = ? and target = ?")
                .params(action, paymentId).query(Long.class).single();
    }

    @Test
    void aCaptureIsConfirmedFirstThenDoneOnceHoweverOftenTheFormIsSent() {
        String id = paid(true);
        String key = formKeys(id).get("capture");
        assertThat(key).as("a capture form with its key").isNotNull();

        var confirm = developer.post("/dashboard/test/payments/" + id + "/capture", Map.of("amount", "30.00",
                "idempotency_key", key));
        assertThat(confirm.status()).isEqualTo(200);
        assertThat(confirm.body()).contains("Capture ZAR 30.00?").contains("name=\"confirmed\" value=\"yes\"");
        assertThat(apiPayment(id).get("paid_amount").longValue()).as("nothing before the confirmation").isZero();

        for (int i = 0; i < 2; i++) {
            var done = developer.post("/dashboard/test/payments/" + id + "/capture", Map.of("amount", "30.00",
                    "idempotency_key", key, "confirmed", "yes"));
            assertThat(done.status()).as("send " + (i + 1)).isEqualTo(303);
            assertThat(done.location()).endsWith("/dashboard/test/payments/" + id + "?done=capture");
        }
        assertThat(apiPayment(id).get("paid_amount").longValue()).as("captured once").isEqualTo(3000);
        assertThat(audited("payment.capture", id)).isEqualTo(1);
        assertThat(developer.get("/dashboard/test/payments/" + id + "?done=capture").body()).contains("Captured.");

        // More than the 70.00 left: refused in the API's words for the same capture, and nothing captured.
        var tooMuch = developer.post("/dashboard/test/payments/" + id + "/capture", Map.of("amount", "80.00",
                "idempotency_key", formKeys(id).get("capture"), "confirmed", "yes"));
        assertShowsTheApisRefusal(tooMuch, "/collect/payments/" + id + "/captures", "{\"amount\":8000}");
        assertThat(apiPayment(id).get("paid_amount").longValue()).isEqualTo(3000);
        assertThat(audited("payment.capture", id)).isEqualTo(1);
    }

    private void assertShowsTheApisRefusal(DashboardClient.Page page, String path, String body) {
        ApiRefusals.assertShowsTheApisRefusal(page, merchant.test().post(path, body).send());
    }

    @Test
    void aRefundGoesThroughTheApisFlowOnceAndARefusalShowsItsReason() {
        String id = paid(false);
        String key = formKeys(id).get("refund");
        for (int i = 0; i < 2; i++) {
            var done = developer.post("/dashboard/test/payments/" + id + "/refund", Map.of("amount", "10.00",
                    "reason", "requested_by_customer", "idempotency_key", key, "confirmed", "yes"));
            assertThat(done.status()).isEqualTo(303);
        }
        JsonNode refunds = merchant.test().get("/collect/refunds?payment=" + id).send().json();
        assertThat(refunds.get("data")).hasSize(1);
        assertThat(refunds.get("data").get(0).get("amount").longValue()).isEqualTo(1000);
        assertThat(refunds.get("data").get(0).get("reason").stringValue()).isEqualTo("requested_by_customer");
        assertThat(audited("payment.refund", id)).isEqualTo(1);
        assertThat(jdbc.sql("select before_state ->> 'refunded_amount' from dashboard_audit_log where target = ?")
                .param(id).query(String.class).single()).isEqualTo("0");

        var tooMuch = developer.post("/dashboard/test/payments/" + id + "/refund", Map.of("amount", "95.00",
                "idempotency_key", formKeys(id).get("refund"), "confirmed", "yes"));
        assertThat(tooMuch.status()).isEqualTo(409);
        assertShowsTheApisRefusal(tooMuch, "/collect/payments/" + id + "/refunds", "{\"amount\":9500}");
        assertThat(audited("payment.refund", id)).isEqualTo(1);

        var notAnAmount = developer.post("/dashboard/test/payments/" + id + "/refund", Map.of("amount", "ten",
                "idempotency_key", formKeys(id).get("refund"), "confirmed", "yes"));
        assertThat(notAnAmount.status()).isEqualTo(400);
        assertThat(notAnAmount.body()).contains("Enter an amount such as 10.50 (in ZAR).");
        var noKey = developer.post("/dashboard/test/payments/" + id + "/refund", Map.of("confirmed", "yes"));
        assertThat(noKey.status()).isEqualTo(400);
        assertThat(merchant.test().get("/collect/refunds?payment=" + id).send().json().get("data")).hasSize(1);
    }

    @Test
    void aVoidReleasesTheHoldAndAViewerSeesNoActions() {
        String id = paid(true);
        var done = developer.post("/dashboard/test/payments/" + id + "/void", Map.of(
                "idempotency_key", formKeys(id).get("void"), "confirmed", "yes"));
        assertThat(done.status()).isEqualTo(303);
        JsonNode payment = apiPayment(id);
        assertThat(payment.get("voided_amount").longValue()).isEqualTo(10000);
        assertThat(payment.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(audited("payment.void", id)).isEqualTo(1);
        // A void of a payment voided already: refused in the API's words for the same void.
        var again = developer.post("/dashboard/test/payments/" + id + "/void", Map.of(
                "idempotency_key", java.util.UUID.randomUUID().toString(), "confirmed", "yes"));
        assertShowsTheApisRefusal(again, "/collect/payments/" + id + "/voids", "{}");
        assertThat(audited("payment.void", id)).isEqualTo(1);

        DashboardClient viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.71");
        String refundable = paid(false);
        var page = viewer.get("/dashboard/test/payments/" + refundable);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).doesNotContain("Refund…").doesNotContain("idempotency_key");
        assertThat(viewer.post("/dashboard/test/payments/" + refundable + "/refund", Map.of("confirmed", "yes"))
                .status()).isEqualTo(403);
    }

    @Test
    void withARefundPendingThePageOffersExactlyWhatTheApiStillAcceptsAndTheApiRefusesOneCentMore() {
        String id = paid(false);
        // An amount ending in 52 is accepted by the sandbox and stays pending until the recovery job asks after it.
        JsonNode pending = merchant.test().post("/collect/payments/" + id + "/refunds", "{\"amount\":1052}").send()
                .json();
        assertThat(pending.get("status").stringValue()).isEqualTo("pending");

        var page = developer.get("/dashboard/test/payments/" + id);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).as("paid 100.00 less the pending 10.52, not less the succeeded refunds alone")
                .contains("Refundable: <span>ZAR 89.48</span>");
        var confirm = developer.post("/dashboard/test/payments/" + id + "/refund", Map.of(
                "idempotency_key", formKeys(id).get("refund")));
        assertThat(confirm.body()).contains("Refund ZAR 89.48?");

        var oneCentMore = merchant.test().post("/collect/payments/" + id + "/refunds", "{\"amount\":8949}").send();
        assertThat(oneCentMore.status()).isEqualTo(409);
        assertThat(oneCentMore.json().get("detail").stringValue())
                .isEqualTo("refund amount exceeds the refundable amount");
        var all = merchant.test().post("/collect/payments/" + id + "/refunds", "{\"amount\":8948}").send();
        assertThat(all.status()).isEqualTo(201);
        assertThat(developer.get("/dashboard/test/payments/" + id).body()).as("nothing is left to offer")
                .doesNotContain("Refundable:");
    }
}
