package io.tender.paymentrequest;

import io.tender.api.ApiException;
import io.tender.checkout.Checkout;
import io.tender.payment.PaymentMethodType;
import io.tender.payment.SessionClock;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Decisions §7 "Payment request", its life: paid once on its link (and the link then says so), a declined card
 * retried, PATCH and DELETE in every status, expiry with the session, a bill's payment applied, a push approved in the
 * app or declined, and the events of each move with the request as GET shows it.
 */
class PaymentRequestLifecycleIT extends ApiIntegrationTest {

    private static final String CARD = "4242424242424242";

    @Autowired
    private Checkout checkout;

    @Autowired
    private ApplicationContext context;

    private Merchants.Merchant merchant;
    private Api api;
    private Requests requests;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        requests = new Requests(api, checkout);
    }

    /** The event of this type about the request, which must be there exactly once. */
    private JsonNode event(JsonNode request, String type) {
        List<JsonNode> found = Requests.events(jdbc, Requests.id(request)).stream()
                .filter(e -> e.get("type").stringValue().equals(type)).toList();
        assertThat(found).as(type).hasSize(1);
        return found.getFirst().get("data");
    }

    private String page(JsonNode request) {
        var page = anonymous().get("/checkout/" + Requests.checkoutId(request)).send();
        assertThat(page.status()).isEqualTo(200);
        return page.text();
    }

    private JsonNode session(JsonNode request) {
        return Requests.expect(200, api.get("/collect/payment_sessions/" + request.get("payment_session_id").stringValue()).send());
    }

    @Test
    void aPaidRequestShowsWhatRefundsOfItsPaymentGaveBack() {
        JsonNode request = requests.link(9000);
        assertThat(requests.get(request).get("refunded_amount").longValue()).isZero();
        Checkout.Attempt paid = requests.payByCard(request, "4242424242424242");

        Requests.expect(201, api.post("/collect/payments/" + paid.paymentId() + "/refunds", "{\"amount\":2500}").send());

        JsonNode after = requests.get(request);
        assertThat(after.get("status").stringValue()).isEqualTo("paid");
        assertThat(after.get("refunded_amount").longValue()).isEqualTo(2500);
        assertThat(api.get("/collect/payment_requests?status=paid").send().json().get("data").get(0)
                .get("refunded_amount").longValue()).isEqualTo(2500);
    }

    @Test
    void aRequestIsPaidOnceOnItsLinkAndItsPageThenSaysSo() {
        JsonNode request = requests.create("\"amount\":15000,\"currency\":\"ZAR\",\"description\":\"Invoice 1001\"");
        Checkout.Attempt attempt = requests.payByCard(request, CARD);
        assertThat(attempt.status()).isEqualTo("succeeded");

        JsonNode paid = requests.get(request);
        assertThat(paid.get("status").stringValue()).isEqualTo("paid");
        assertThat(paid.get("payment_id").stringValue()).isEqualTo(attempt.paymentId());
        assertThat(paid.get("version").intValue()).isEqualTo(2);
        ApiException again = catchThrowableOfType(ApiException.class, () -> requests.payByCard(request, CARD));
        assertThat(again.status()).isEqualTo(409);
        assertThat(Requests.expect(200, api.get("/collect/payments?payment_session="
                + request.get("payment_session_id").stringValue()).send()).get("data")).hasSize(1);
        assertThat(page(request)).contains("This payment request has been paid", "<span>ZAR 150.00</span> paid to <span>"
                + merchant.name() + "</span> with <span>VISA •••• 4242</span>", "Invoice 1001");

        assertThat(Requests.types(jdbc, Requests.id(request)))
                .containsExactly("payment_request.created", "payment_request.paid");
        assertThat(event(request, "payment_request.created")).isEqualTo(request);
        JsonNode data = event(request, "payment_request.paid");
        JsonNode payment = Requests.expect(200, api.get("/collect/payments/" + attempt.paymentId()).send());
        assertThat(data.get("payment")).isEqualTo(payment);
        assertThat(((ObjectNode) data.deepCopy()).without("payment")).isEqualTo(paid);
    }

    @Test
    void aDeclinedCardLeavesALinkRequestActiveForAnotherTry() {
        JsonNode request = requests.link(2000);
        assertThat(requests.payByCard(request, "4000000000000002").status()).isEqualTo("failed");
        JsonNode active = requests.get(request);
        assertThat(active.get("status").stringValue()).isEqualTo("active");
        assertThat(active.get("version").intValue()).isEqualTo(1);
        assertThat(requests.payByCard(request, CARD).status()).isEqualTo("succeeded");
        assertThat(requests.get(request).get("status").stringValue()).isEqualTo("paid");
    }

    @Test
    void patchChangesWhatMayChangeWhileActive() {
        JsonNode request = requests.create("\"amount\":100,\"currency\":\"ZAR\",\"description\":\"Before\","
                + "\"external_reference\":\"REF-1\",\"metadata\":{\"keep\":\"1\",\"drop\":\"2\"}");
        String expires = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MILLIS).toString();
        var response = requests.patch(request, "{\"description\":\"After\",\"external_reference\":null,"
                + "\"expires_at\":\"" + expires + "\",\"metadata\":{\"drop\":null,\"add\":\"3\"}}");
        JsonNode patched = Requests.expect(200, response);
        assertThat(patched.get("description").stringValue()).isEqualTo("After");
        assertThat(patched.has("external_reference")).isFalse();
        assertThat(Instant.parse(patched.get("expires_at").stringValue())).isEqualTo(Instant.parse(expires));
        assertThat(patched.get("metadata").properties()).extracting(Map.Entry::getKey).containsExactlyInAnyOrder("keep", "add");
        assertThat(patched.get("version").intValue()).isEqualTo(2);
        assertThat(patched.get("amount").longValue()).isEqualTo(100);
        assertThat(requests.get(request)).isEqualTo(patched);
        assertThat(Instant.parse(session(request).get("expires_at").stringValue())).isEqualTo(Instant.parse(expires));
        assertThat(event(request, "payment_request.updated")).isEqualTo(patched);

        JsonNode unchanged = Requests.expect(200, requests.patch(request, "{\"description\":\"After\"}"));
        assertThat(unchanged.get("version").intValue()).isEqualTo(2);
        assertThat(Requests.types(jdbc, Requests.id(request))).containsExactly("payment_request.created",
                "payment_request.updated");

        assertBadRequest(requests.patch(request, "{\"amount\":200}"), "amount");
        assertBadRequest(requests.patch(request, "{\"currency\":\"USD\",\"colour\":\"red\"}"), "currency", "colour");
        assertBadRequest(requests.patch(request, "{\"expires_at\":null}"), "expires_at");
        assertBadRequest(requests.patch(request, "{\"expires_at\":\"" + Instant.now().plus(Duration.ofDays(40)) + "\"}"),
                "expires_at");
        assertBadRequest(requests.patch(request, "{\"description\":\"" + "d".repeat(501) + "\"}"), "description");
        assertBadRequest(requests.patch(request, "{\"external_reference\":\"a b\"}"), "external_reference");
        assertBadRequest(requests.patch(request, "{\"metadata\":{\"k\":5}}"), "metadata.k");
        assertBadRequest(api.patch("/collect/payment_requests/" + Requests.id(request), "{}").header("If-Match", "two")
                .send(), "If-Match");
        assertProblem(api.patch("/collect/payment_requests/" + Requests.id(request), "{\"description\":\"Stale\"}")
                .header("If-Match", "\"1\"").send(), 409, "conflict");
        JsonNode matched = Requests.expect(200, api.patch("/collect/payment_requests/" + Requests.id(request),
                "{\"description\":\"Matched\"}").header("If-Match", "\"2\"").send());
        assertThat(matched.get("version").intValue()).isEqualTo(3);
        assertThat(requests.get(request).get("description").stringValue()).isEqualTo("Matched");
    }

    @Test
    void deleteCancelsAnActiveRequestAndItsLinkSaysSo() {
        JsonNode request = requests.create("\"amount\":100,\"currency\":\"ZAR\",\"description\":\"Dinner\"");
        var cancel = api.delete("/collect/payment_requests/" + Requests.id(request)).idempotencyKey("cancel-1").send();
        JsonNode cancelled = Requests.expect(200, cancel);
        assertThat(cancelled.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(cancelled.get("version").intValue()).isEqualTo(2);
        assertThat(requests.get(request)).isEqualTo(cancelled);
        assertThat(session(request).get("status").stringValue()).isEqualTo("cancelled");
        assertThat(event(request, "payment_request.cancelled")).isEqualTo(cancelled);
        var replay = api.delete("/collect/payment_requests/" + Requests.id(request)).idempotencyKey("cancel-1").send();
        assertThat(replay.bytes()).isEqualTo(cancel.bytes());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");

        assertThat(catchThrowableOfType(ApiException.class, () -> requests.payByCard(request, CARD)).status())
                .isEqualTo(409);
        assertThat(page(request)).contains("This payment request was cancelled by " + merchant.name(),
                "No money was taken");
        assertProblem(api.delete("/collect/payment_requests/" + Requests.id(request)).header("If-Match", "\"1\"").send(),
                409, "invalid_state_transition");
    }

    @Test
    void aStaleIfMatchOrAnAttemptInFlightKeepsTheRequestActive() {
        JsonNode request = requests.link(100);
        assertProblem(api.delete("/collect/payment_requests/" + Requests.id(request)).header("If-Match", "\"7\"").send(),
                409, "conflict");
        Checkout.Attempt threeDs = requests.payByCard(request, "4000000000003220");
        assertThat(threeDs.status()).isEqualTo("pending");
        JsonNode refused = assertProblem(requests.delete(request), 409, "invalid_state_transition");
        assertThat(refused.get("detail").stringValue()).contains("in progress");
        assertThat(requests.get(request).get("status").stringValue()).isEqualTo("active");
        assertThat(session(request).get("status").stringValue()).isEqualTo("active");
    }

    @Test
    void patchAndDeleteOfAnEndedRequestAre409InEveryStatus() {
        JsonNode paid = requests.link(100);
        requests.payByCard(paid, CARD);
        JsonNode expired = requests.link(100);
        SessionClock.expire(context, expired.get("payment_session_id").stringValue());
        JsonNode cancelled = requests.link(100);
        Requests.expect(200, requests.delete(cancelled));
        JsonNode failed = requests.push(100, "+27821230002");

        Map<String, JsonNode> ended = Map.of("paid", paid, "expired", expired, "cancelled", cancelled, "failed", failed);
        ended.forEach((status, request) -> {
            JsonNode before = requests.get(request);
            assertThat(before.get("status").stringValue()).isEqualTo(status);
            JsonNode patch = assertProblem(requests.patch(request, "{\"description\":\"Too late\"}"), 409,
                    "invalid_state_transition");
            assertThat(patch.get("detail").stringValue()).contains(status);
            assertProblem(requests.delete(request), 409, "invalid_state_transition");
            assertThat(requests.get(request)).isEqualTo(before);
        });
    }

    @Test
    void anUnpaidRequestExpiresWithItsSessionAndItsLinkSaysSo() {
        JsonNode request = requests.link(100);
        SessionClock.expire(context, request.get("payment_session_id").stringValue());
        JsonNode expired = requests.get(request);
        assertThat(expired.get("status").stringValue()).isEqualTo("expired");
        assertThat(expired.has("payment_id")).isFalse();
        assertThat(event(request, "payment_request.expired")).isEqualTo(expired);
        assertThat(page(request)).contains("This payment request has expired");
        assertThat(catchThrowableOfType(ApiException.class, () -> requests.payByCard(request, CARD)).status())
                .isEqualTo(409);
    }

    @Test
    void aBillRequestTakesWhatIsOutstandingAndItsPaymentIsAppliedToTheBill() {
        Requests.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-bill\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\"}").send());
        JsonNode bill = Requests.expect(201, api.post("/billing/bills", "{\"customer\":\"c-bill\","
                + "\"external_reference\":\"INV-7\",\"currency\":\"ZAR\",\"amount_due\":12500,"
                + "\"due_date\":\"2030-01-31\"}").send());
        JsonNode request = requests.create("\"bill\":\"INV-7\"");
        assertThat(request.get("amount").longValue()).isEqualTo(12500);
        assertThat(request.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(request.get("bill").stringValue()).isEqualTo("INV-7");
        assertThat(request.get("obligation_id")).isEqualTo(bill.get("obligation_id"));

        Checkout.Attempt attempt = requests.payByCard(request, CARD);
        assertThat(requests.get(request).get("status").stringValue()).isEqualTo("paid");
        JsonNode after = Requests.expect(200, api.get("/billing/bills/INV-7").send());
        assertThat(after.get("status").stringValue()).isEqualTo("paid");
        assertThat(after.get("amount_remaining").longValue()).isZero();
        List<JsonNode> applied = Requests.events(jdbc, bill.get("obligation_id").stringValue());
        assertThat(applied).hasSize(1);
        assertThat(applied.getFirst().get("type").stringValue()).isEqualTo("obligation.amount_applied");
        assertThat(applied.getFirst().get("data").get("payment_id").stringValue()).isEqualTo(attempt.paymentId());
        assertThat(applied.getFirst().get("data").get("amount").longValue()).isEqualTo(12500);

        assertProblem(api.post("/collect/payment_requests", "{\"bill\":\"INV-404\"}").send(), 404, "resource_not_found");
        assertProblem(api.post("/collect/payment_requests", "{\"bill\":\"INV-7\"}").send(), 422, "operation_not_allowed");
    }

    @Test
    void aPushIsApprovedInTheAppWithinSecondsWithNobodyOnTheCheckout() {
        JsonNode request = requests.push(3000, "+27821234567");
        // The sandbox approves a few seconds later; the recovery job would only look after 30 s, the poller every 2 s.
        await().atMost(Duration.ofSeconds(25)).pollInterval(Duration.ofMillis(250))
                .until(() -> requests.get(request).get("status").stringValue().equals("paid"));
        JsonNode paid = requests.get(request);
        JsonNode data = event(request, "payment_request.paid");
        assertThat(data.get("payment").get("id").stringValue()).isEqualTo(paid.get("payment_id").stringValue());
        assertThat(data.get("payment").get("payment_method_details").get("type").stringValue()).isEqualTo("capitec_pay");
        assertThat(data.get("payment").get("payment_method_details").get("capitec_pay").get("phone_number").stringValue())
                .endsWith("4567").doesNotContain("821234");
        assertThat(Requests.types(jdbc, Requests.id(request))).containsExactly("payment_request.created",
                "payment_request.paid");
    }

    @Test
    void aDeclinedPushFailsTheRequestAndItsLinkCannotBePaidLater() {
        JsonNode request = requests.push(3000, "+27821110002");
        JsonNode failed = requests.get(request);
        assertThat(failed.get("status").stringValue()).isEqualTo("failed");
        assertThat(failed.get("last_payment_error").get("error_code").isString()).isTrue();
        assertThat(failed.has("payment_id")).isFalse();
        assertThat(event(request, "payment_request.failed")).isEqualTo(failed);
        assertThat(Requests.types(jdbc, Requests.id(request))).containsExactly("payment_request.created",
                "payment_request.failed");
        assertThat(session(request).get("status").stringValue()).isEqualTo("cancelled");
        ApiException refused = catchThrowableOfType(ApiException.class, () -> checkout.payByPhone(
                Requests.checkoutId(request), PaymentMethodType.CAPITEC_PAY, "+27821234567"));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(page(request)).contains("This payment request failed", "No money was taken")
                .doesNotContain("cancelled by");
    }

    @Test
    void aReplayedPushRequestIsPushedOnce() {
        String body = "{\"amount\":900,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\","
                + "\"capitec\":{\"phone_number\":\"+27825550000\"}}}";
        var first = api.post("/collect/payment_requests", body).idempotencyKey("push-once").send();
        var replay = api.post("/collect/payment_requests", body).idempotencyKey("push-once").send();
        assertThat(replay.bytes()).isEqualTo(first.bytes());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        String session = first.json().get("payment_session_id").stringValue();
        assertThat(Requests.expect(200, api.get("/collect/payments?payment_session=" + session).send()).get("data"))
                .hasSize(1);
        assertThat(jdbc.sql("select count(*) from payment_requests where merchant_id = ?").param(merchant.id())
                .query(Integer.class).single()).isEqualTo(1);
    }
}
