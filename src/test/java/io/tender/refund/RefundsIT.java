package io.tender.refund;

import io.tender.checkout.Checkout;
import io.tender.payment.LiveCrashes;
import io.tender.payment.PaymentEventsIT;
import io.tender.payment.Collect;
import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import io.tender.support.Merchants;
import io.tender.settlement.Janitor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Refunds over real HTTP on sandbox payments (decisions §10): only captured money, never more than was captured even
 * when refunds race, every refusal a 409 in §10's words and every bad input a 400 naming its field with nothing
 * created, the sandbox's amounts ending 51, 52 and 53, and the events. And a refund whose answer times out, in live
 * mode against a processor that counts its calls (WireMock, in the context of {@link LiveProvidersIntegrationTest}):
 * sent once, left pending while its outcome is unknown, then settled by asking the processor.
 */
class RefundsIT extends LiveProvidersIntegrationTest {

    private static final String APPROVED = "{\"result\":\"approved\",\"amount\":%d,\"currency\":\"ZAR\","
            + "\"reference\":{}}";
    private static final String AUTHORIZED = "{\"result\":\"approved\",\"amount\":%d,\"currency\":\"ZAR\","
            + "\"funding\":\"CREDIT\",\"reference\":{}}";

    @Autowired
    private Checkout checkout;
    @Autowired
    private PaymentRefunds refunds;
    @Autowired
    private Janitor janitor;

    private Merchants.Merchant merchant;
    private Api api;
    private Collect collect;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        collect = new Collect(api, checkout);
    }

    /** A payment of {@code amount} paid in full by card. */
    private String paid(long amount) {
        Checkout.Attempt attempt = collect.payByCard(collect.session(amount), "4242424242424242");
        assertThat(attempt.status()).isEqualTo("succeeded");
        return attempt.paymentId();
    }

    private Api.Response refund(String paymentId, String body) {
        return api.post("/collect/payments/" + paymentId + "/refunds", body).send();
    }

    private JsonNode created(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    @Test
    void aPartialRefundThenTheRestGiveBackWhatWasCapturedAndTheThirdIsRefused() {
        String id = paid(10000);

        JsonNode first = created(refund(id, "{\"amount\":4000,\"reason\":\"requested_by_customer\","
                + "\"metadata\":{\"ticket\":\"T-7\"}}"));
        assertThat(first.get("id").stringValue()).matches("rfd_[a-f0-9]{24}");
        assertThat(first.get("payment_id").stringValue()).isEqualTo(id);
        assertThat(first.get("amount").longValue()).isEqualTo(4000);
        assertThat(first.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(first.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(first.get("reason").stringValue()).isEqualTo("requested_by_customer");
        assertThat(first.get("metadata").get("ticket").stringValue()).isEqualTo("T-7");
        assertThat(first.has("failure_reason")).isFalse();

        JsonNode payment = collect.get("/collect/payments/" + id);
        assertThat(payment.get("refunded_amount").longValue()).isEqualTo(4000);
        assertThat(payment.get("paid_amount").longValue()).as("refunds keep paid_amount").isEqualTo(10000);
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");

        JsonNode rest = created(refund(id, "{}"));
        assertThat(rest.get("amount").longValue()).as("what was left").isEqualTo(6000);
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isEqualTo(10000);

        JsonNode refused = assertProblem(refund(id, "{\"amount\":1}"), 409, "invalid_state_transition");
        assertThat(refused.get("detail").stringValue()).isEqualTo("refund amount exceeds the refundable amount");
        assertProblem(refund(id, "{}"), 409, "invalid_state_transition");

        assertThat(collect.get("/collect/refunds/" + first.get("id").stringValue())).isEqualTo(first);
        assertThat(collect.get("/collect/refunds?payment=" + id).get("data")).extracting(r -> r.get("id").stringValue())
                .containsExactly(rest.get("id").stringValue(), first.get("id").stringValue());
    }

    @Test
    void anOpenAuthorizationIsVoidedNotRefundedAndAFailedPaymentHasNothingToRefund() {
        Checkout.Attempt authorized = collect.payByCard(collect.manualSession(5000), "4242424242424242");
        JsonNode open = assertProblem(refund(authorized.paymentId(), "{}"), 409, "invalid_state_transition");
        assertThat(open.get("detail").stringValue()).isEqualTo("nothing captured to refund; void the authorization instead");

        // Captured in part: only that part is refundable.
        assertThat(api.post("/collect/payments/" + authorized.paymentId() + "/captures", "{\"amount\":2000}").send()
                .status()).isEqualTo(200);
        assertProblem(refund(authorized.paymentId(), "{\"amount\":2001}"), 409, "invalid_state_transition");
        assertThat(created(refund(authorized.paymentId(), "{}")).get("amount").longValue()).isEqualTo(2000);

        Checkout.Attempt declined = collect.payByCard(collect.session(3000), "4000000000000002");
        JsonNode failed = assertProblem(refund(declined.paymentId(), "{}"), 409, "invalid_state_transition");
        assertThat(failed.get("detail").stringValue()).contains("failed");
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"amount":0}                  | amount
            {"amount":-5}                 | amount
            {"amount":"100"}              | amount
            {"amount":100000000}          | amount
            {"reason":"changed_mind"}     | reason
            {"reason":7}                  | reason
            {"metadata":{"k":1}}          | metadata.k
            {"currency":"ZAR"}            | currency
            """)
    void aBadRefundIsA400NamingTheFieldThatCreatesNothingAndLeavesTheKeyFree(String body, String field) {
        String id = paid(2000);

        assertBadRequest(api.post("/collect/payments/" + id + "/refunds", body).idempotencyKey("rf-bad").send(), field);

        assertThat(collect.get("/collect/refunds?payment=" + id).get("data")).isEmpty();
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isZero();
        var good = api.post("/collect/payments/" + id + "/refunds", "{\"amount\":500}").idempotencyKey("rf-bad").send();
        assertThat(created(good).get("amount").longValue()).isEqualTo(500);
    }

    @Test
    void theSameKeyReplaysTheRefundAndAStaleIfMatchIsRefused() {
        String id = paid(8000);
        int version = collect.get("/collect/payments/" + id).get("version").intValue();

        var stale = api.post("/collect/payments/" + id + "/refunds", "{\"amount\":1000}")
                .header("If-Match", "\"" + (version - 1) + "\"").send();
        assertProblem(stale, 409, "conflict");

        var first = api.post("/collect/payments/" + id + "/refunds", "{\"amount\":1000}").idempotencyKey("rf-1")
                .header("If-Match", "\"" + version + "\"").send();
        var again = api.post("/collect/payments/" + id + "/refunds", "{\"amount\":1000}").idempotencyKey("rf-1")
                .header("If-Match", "\"" + version + "\"").send();
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.bytes()).isEqualTo(first.bytes());
        // The refund moved the payment's version: the same If-Match under another key refunds nothing more.
        var retried = api.post("/collect/payments/" + id + "/refunds", "{\"amount\":1000}").idempotencyKey("rf-2")
                .header("If-Match", "\"" + version + "\"").send();
        assertProblem(retried, 409, "conflict");
        assertThat(collect.get("/collect/payments/" + id).get("version").intValue()).isGreaterThan(version);
        assertThat(collect.get("/collect/refunds?payment=" + id).get("data")).hasSize(1);
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isEqualTo(1000);
    }

    @Test
    void twentyConcurrentRefundsNeverAddUpToMoreThanWasCaptured() throws Exception {
        String id = paid(10000);
        var start = new CountDownLatch(1);
        var statuses = new ConcurrentLinkedQueue<Integer>();
        try (var pool = Executors.newFixedThreadPool(20)) {
            for (int i = 0; i < 20; i++) {
                pool.submit(() -> {
                    start.await();
                    statuses.add(refund(id, "{\"amount\":1500}").status());
                    return null;
                });
            }
            start.countDown();
        }

        assertThat(statuses).hasSize(20).containsOnly(201, 409);
        JsonNode listed = collect.get("/collect/refunds?payment=" + id + "&limit=100").get("data");
        long refunded = 0;
        for (JsonNode r : listed) {
            assertThat(r.get("status").stringValue()).isEqualTo("succeeded");
            refunded += r.get("amount").longValue();
        }
        assertThat(listed).as("6 x 1500 fit in 10000, a 7th does not").hasSize(6);
        assertThat(statuses.stream().filter(s -> s == 201)).hasSize(6);
        assertThat(refunded).isEqualTo(9000);
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isEqualTo(9000);
    }

    @Test
    void theSandboxDeclinesAmountsEndingIn51AndItsFailureFreesTheAmount() {
        String id = paid(5000);

        JsonNode declined = created(refund(id, "{\"amount\":1051}"));

        assertThat(declined.get("status").stringValue()).isEqualTo("failed");
        assertThat(declined.get("failure_reason").stringValue()).isEqualTo("declined");
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isZero();
        assertThat(created(refund(id, "{}")).get("amount").longValue()).as("a failed refund holds nothing back")
                .isEqualTo(5000);
        assertThat(PaymentEventsIT.types(jdbc, declined.get("id").stringValue()))
                .containsExactly("refund.created", "refund.failed");
    }

    @Test
    void anAmountEndingIn52IsPendingUntilTheProcessorFinishesIt() {
        String id = paid(5000);

        JsonNode pending = created(refund(id, "{\"amount\":2052}"));
        String refundId = pending.get("id").stringValue();

        assertThat(pending.get("status").stringValue()).isEqualTo("pending");
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isZero();
        assertThat(created(refund(id, "{}")).get("amount").longValue()).as("a pending refund holds its amount")
                .isEqualTo(2948);
        assertThat(collect.get("/collect/refunds?payment=" + id + "&status=pending").get("data"))
                .extracting(r -> r.get("id").stringValue()).containsExactly(refundId);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
            // As if the recovery job's min-age had passed since its last look.
            jdbc.sql("update refunds set updated_at = now() - interval '1 hour' where id = ?").param(refundId).update();
            janitor.runOnce(refunds);
            return collect.get("/collect/refunds/" + refundId).get("status").stringValue().equals("succeeded");
        });
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isEqualTo(5000);
        assertThat(PaymentEventsIT.types(jdbc, refundId)).containsExactly("refund.created", "refund.succeeded");
    }

    @Test
    void anAmountEndingIn53TimesOutAfterTheProcessorAcceptedAndItsStatusSettlesIt() {
        String id = paid(5000);

        JsonNode refund = created(refund(id, "{\"amount\":1053}"));

        assertThat(refund.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(collect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isEqualTo(1053);
        assertThat(jdbc.sql("select call_status from refunds where id = ?").param(refund.get("id").stringValue())
                .query(String.class).single()).isEqualTo("succeeded");
        // The processor received one refund for the payment, under the refund's own key (not a reissued one), and
        // approved it. The sandbox answers that key "unknown" however often it is sent
        // (SandboxProcessor.REFUND_TIMES_OUT_AFTER_APPROVING): only its status, asked after, can have said "approved".
        assertThat(jdbc.sql("select operation_key || ' ' || (outcome ->> 'result') from sandbox_processor_operations"
                        + " where kind = 'refund' and authorization_key = ?").param(authorizationKey(id))
                .query(String.class).list())
                .as("the refunds the processor received for the payment")
                .containsExactly(processorKey(refund.get("id").stringValue()) + " approved");
    }

    @Test
    void aRefundWhoseAnswerTimesOutIsSentOnceLeftPendingAndSettledByAskingTheProcessor() {
        Api live = merchant.live();
        Collect liveCollect = new Collect(live, checkout);
        // An approved payment (its status says so too, should a first call to WireMock be slower than the timeout).
        PROVIDER.stubFor(post("/processor/authorize").willReturn(okJson(AUTHORIZED.formatted(5000))));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(okJson(AUTHORIZED.formatted(5000))));
        Checkout.Attempt attempt = liveCollect.payByCard(liveCollect.session(5000), "4242424242424242");
        assertThat(attempt.status()).isEqualTo("succeeded");
        String id = attempt.paymentId();
        // The processor approves the refund, but its answer comes after the read timeout (1.5 s here), and for now
        // it cannot say what became of it either.
        PROVIDER.stubFor(post("/processor/refund").willReturn(okJson(APPROVED.formatted(2000)).withFixedDelay(3000)));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(aResponse().withStatus(503)));

        JsonNode refund = created(live.post("/collect/payments/" + id + "/refunds", "{\"amount\":2000}").send());
        String refundId = refund.get("id").stringValue();

        // The unknown outcome, as the client and an operator see it: pending, money perhaps moved, nothing counted.
        assertThat(refund.get("status").stringValue()).isEqualTo("pending");
        assertThat(jdbc.sql("select call_status from refunds where id = ?").param(refundId).query(String.class)
                .single()).isEqualTo("unknown");
        assertThat(liveCollect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isZero();
        JsonNode held = assertProblem(live.post("/collect/payments/" + id + "/refunds", "{\"amount\":3001}").send(),
                409, "invalid_state_transition");
        assertThat(held.get("detail").stringValue()).as("an unknown refund holds its amount")
                .isEqualTo("refund amount exceeds the refundable amount");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund")));
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund")).withHeader("Idempotency-Key",
                equalTo(processorKey(refundId))));
        int asked = PROVIDER.findAll(getRequestedFor(urlPathMatching("/processor/operations/.*(:|%3A)refund"))).size();
        assertThat(asked).as("its status asked after the timeout").isPositive();

        // The processor can tell now: the recovery job asks after the refund, and it succeeds without another send.
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(okJson(APPROVED.formatted(2000))));
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).until(() ->
                liveCollect.get("/collect/refunds/" + refundId).get("status").stringValue().equals("succeeded"));
        assertThat(liveCollect.get("/collect/payments/" + id).get("refunded_amount").longValue()).isEqualTo(2000);
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/refund")));
        assertThat(PROVIDER.findAll(getRequestedFor(urlPathMatching("/processor/operations/.*(:|%3A)refund"))))
                .as("asked again until the processor could tell").hasSizeGreaterThan(asked);
        assertThat(PaymentEventsIT.types(jdbc, refundId)).containsExactly("refund.created", "refund.succeeded");
    }

    private String processorKey(String refundId) {
        return jdbc.sql("select processor_key from refunds where id = ?").param(refundId).query(String.class).single();
    }

    private String authorizationKey(String paymentId) {
        return jdbc.sql("select authorization_key from refunds where payment_id = ? limit 1").param(paymentId)
                .query(String.class).single();
    }

    @Test
    void aRefundOfABillsPaymentMakesThePaidBillUnpaidAgainAndSaysSo() {
        Collect.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-rf\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\"}").send());
        JsonNode bill = Collect.expect(201, api.post("/billing/bills", "{\"customer\":\"c-rf\","
                + "\"external_reference\":\"INV-RF\",\"currency\":\"ZAR\",\"amount_due\":12500,"
                + "\"due_date\":\"2030-01-31\"}").send());
        Checkout.Attempt attempt = collect.payByCard(collect.session("\"bill\":\"INV-RF\""), "4242424242424242");
        assertThat(collect.get("/billing/bills/INV-RF").get("status").stringValue()).isEqualTo("paid");

        JsonNode refund = created(refund(attempt.paymentId(), "{\"amount\":2500}"));

        JsonNode after = collect.get("/billing/bills/INV-RF");
        assertThat(after.get("status").stringValue()).isEqualTo("unpaid");
        assertThat(after.get("amount_paid").longValue()).isEqualTo(10000);
        var events = PaymentEventsIT.events(jdbc, bill.get("obligation_id").stringValue());
        assertThat(events).extracting(e -> e.get("type").stringValue())
                .containsExactly("obligation.amount_applied", "obligation.amount_reversed");
        JsonNode reversed = events.getLast().get("data");
        assertThat(reversed.get("amount").longValue()).isEqualTo(2500);
        assertThat(reversed.get("payment_id").stringValue()).isEqualTo(attempt.paymentId());
        assertThat(reversed.get("refund_id").stringValue()).isEqualTo(refund.get("id").stringValue());

        // A declined refund reverses nothing.
        assertThat(created(refund(attempt.paymentId(), "{\"amount\":1051}")).get("status").stringValue())
                .isEqualTo("failed");
        assertThat(collect.get("/billing/bills/INV-RF").get("amount_paid").longValue()).isEqualTo(10000);
    }

    @Test
    void refundsAreTheirMerchantsAndTheirModesOnly() {
        String id = paid(3000);
        String refundId = created(refund(id, "{\"amount\":100}")).get("id").stringValue();

        Merchants.Merchant other = merchants.create();
        assertProblem(other.test().get("/collect/refunds/" + refundId).send(), 404, "resource_not_found");
        assertThat(other.test().get("/collect/refunds").send().json().get("data")).isEmpty();
        assertProblem(other.test().post("/collect/payments/" + id + "/refunds", "{}").send(), 404, "payment_not_found");
        assertProblem(merchant.live().get("/collect/refunds/" + refundId).send(), 404, "resource_not_found");
        assertThat(merchant.live().get("/collect/refunds").send().json().get("data")).isEmpty();
        assertThat(collect.get("/collect/refunds").get("data")).extracting(r -> r.get("id").stringValue())
                .containsExactly(refundId);
    }

    @Test
    void theListFiltersByPaymentStatusAndCreationTime() {
        String a = paid(4000);
        String b = paid(4000);
        JsonNode ok = created(refund(a, "{\"amount\":1000}"));
        JsonNode failed = created(refund(b, "{\"amount\":1051}"));

        assertThat(ids("/collect/refunds?status=failed")).containsExactly(failed.get("id").stringValue());
        assertThat(ids("/collect/refunds?payment=" + a)).containsExactly(ok.get("id").stringValue());
        assertThat(ids("/collect/refunds?created_at[gte]=" + failed.get("created_at").stringValue()))
                .containsExactly(failed.get("id").stringValue());
        assertBadRequest(api.get("/collect/refunds?status=draft").send(), "status");
        assertBadRequest(api.get("/collect/refunds?payment=rfd_1").send(), "payment");
    }

    private List<String> ids(String path) {
        List<String> ids = new ArrayList<>();
        collect.get(path).get("data").forEach(r -> ids.add(r.get("id").stringValue()));
        return ids;
    }
}
