package io.tender.dashboard;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tender.dashboard.CollectFixtures.expect;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's payment sessions, payment requests and payment pages (decisions §11), over real HTTP against
 * objects made through the API and paid in the sandbox: each list shows the merchant's objects of the URL's mode only,
 * another's id is a 404 page; a payment link made from the dashboard is the request the API then returns, made once
 * however often its form is sent, refused beside the field with nothing made; its QR code reads back to its link;
 * cancelling it goes through a confirmation, once, into the audit log; a viewer sees no form and is refused 403.
 */
class DashboardCollectIT extends ApiIntegrationTest {

    private static final Pattern LOCATION_ID = Pattern.compile("/links/(pr_[a-f0-9]{24})\\?done=created$");

    @Autowired
    private Checkout checkout;

    private Merchant merchant;
    private CollectFixtures test;
    private DashboardClient developer;

    @BeforeEach
    void merchantWithADeveloper() {
        merchant = merchants.create();
        test = new CollectFixtures(merchant.test(), checkout);
        developer = DashboardClient.member(base(), merchants, merchant, "developer", "127.0.0.81");
    }

    @Test
    void theSessionsListShowsTheMerchantsSessionsOfTheModeOnlyAndASessionsPageLinksItsPayment() {
        JsonNode paid = test.session("\"amount\":12500,\"currency\":\"ZAR\"");
        String paymentId = test.pay(paid.get("checkout_session_id").stringValue(), "4242424242424242");
        JsonNode open = test.session("\"amount\":4000,\"currency\":\"ZAR\",\"options\":{\"checkout_options\":"
                + "{\"return_url\":\"https://shop.example/thanks\"}}");
        JsonNode live = new CollectFixtures(merchant.live(), checkout).session("\"amount\":700,\"currency\":\"ZAR\"");
        Merchant other = merchants.create();
        JsonNode others = new CollectFixtures(other.test(), checkout).session("\"amount\":800,\"currency\":\"ZAR\"");

        var list = developer.get("/dashboard/test/sessions");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains(id(paid), id(open), "ZAR 125.00", "ZAR 40.00", "completed", "active")
                .doesNotContain(id(live), id(others)).contains("aria-current=\"page\">Payment sessions");
        var completed = developer.get("/dashboard/test/sessions?status=completed");
        assertThat(completed.body()).contains(id(paid)).doesNotContain(id(open));
        assertThat(developer.get("/dashboard/live/sessions").body()).contains(id(live)).doesNotContain(id(paid));

        var page = developer.get("/dashboard/test/sessions/" + id(paid));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("href=\"/dashboard/test/payments/" + paymentId + "\"", "ZAR 125.00", "paid", "<dd>one time</dd>")
                .doesNotContain("Checkout link");
        var openPage = developer.get("/dashboard/test/sessions/" + id(open));
        assertThat(openPage.body()).contains("https://shop.example/thanks")
                .contains("readonly value=\"" + open.get("session_url").stringValue() + "\"")
                .contains("No attempt to pay yet.");

        for (String path : new String[]{"/dashboard/test/sessions/" + id(live), "/dashboard/test/sessions/" + id(others),
                "/dashboard/live/sessions/" + id(paid), "/dashboard/test/sessions/ps_000000000000000000000000"}) {
            var missing = developer.get(path);
            assertThat(missing.status()).as(path).isEqualTo(404);
            assertThat(missing.body()).contains("Payment session not found").doesNotContain("ZAR 7.00", "ZAR 8.00");
        }
        assertThat(developer.get("/dashboard/test/payments").body()).as("the tabs on the payments list too")
                .contains("href=\"/dashboard/test/sessions\"");
    }

    @Test
    void sessionsFollowOneAnotherOverKeysetPagesThatANewSessionDoesNotShift() {
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 27; i++) {
            ids.add(id(test.session("\"amount\":" + (100 + i) + ",\"currency\":\"ZAR\"")));
        }
        var first = developer.get("/dashboard/test/sessions");
        Matcher next = Pattern.compile("href=\"(/dashboard/test/sessions\\?cursor=ps_[a-f0-9]{24})\" rel=\"next\"")
                .matcher(first.body());
        assertThat(next.find()).as("a next page").isTrue();
        assertThat(first.body()).contains(ids.getLast(), ids.get(2)).doesNotContain(ids.get(1), ids.getFirst());
        test.session("\"amount\":999,\"currency\":\"ZAR\"");
        var second = developer.get(next.group(1));
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body()).contains(ids.get(1), ids.getFirst(), "First page").doesNotContain(ids.get(2))
                .doesNotContain("rel=\"next\"");
    }

    @Test
    void aPaymentLinkMadeFromTheDashboardIsTheApisRequestOnceHoweverOftenTheFormIsSent() throws Exception {
        var form = developer.get("/dashboard/test/links/new");
        assertThat(form.status()).isEqualTo(200);
        String key = CollectFixtures.formField(form.body(), "/dashboard/test/links", "idempotency_key");
        assertThat(key).as("a key in the form").isNotNull();
        Map<String, String> fields = new LinkedHashMap<>(Map.of("amount", "150.00", "currency", "ZAR",
                "description", "Invoice 12", "customer_email", "grace@example.com", "customer_phone", "",
                "idempotency_key", key));

        var first = developer.post("/dashboard/test/links", fields);
        var second = developer.post("/dashboard/test/links", fields);
        assertThat(first.status()).isEqualTo(303);
        assertThat(second.status()).isEqualTo(303);
        assertThat(second.location()).isEqualTo(first.location());
        Matcher made = LOCATION_ID.matcher(first.location());
        assertThat(made.find()).as(first.location()).isTrue();
        String id = made.group(1);

        JsonNode requests = test.get("/collect/payment_requests");
        assertThat(requests.get("data")).as("one request, however often the form was sent").hasSize(1);
        JsonNode request = test.get("/collect/payment_requests/" + id);
        assertThat(request.get("amount").longValue()).isEqualTo(15000);
        assertThat(request.get("description").stringValue()).isEqualTo("Invoice 12");
        assertThat(request.get("customer").get("email").stringValue()).isEqualTo("grace@example.com");
        assertThat(request.get("status").stringValue()).isEqualTo("active");
        assertThat(audited("payment_request.created", id)).isEqualTo(1);

        String url = request.get("link").get("url").stringValue();
        var page = developer.get("/dashboard/test/links/" + id + "?done=created");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("Payment link made.", "readonly value=\"" + url + "\"", "data-copy=\"link-url\"",
                "src=\"/dashboard/test/links/" + id + "/qr.svg\"", "ZAR 150.00", "Invoice 12", "grace@example.com");
        // The QR code's words for a screen reader, and the name its download is saved under.
        assertThat(page.body())
                .containsPattern("alt=\"QR code of the payment link: a phone(&#39;|')s camera opens the link\"")
                .contains("href=\"/dashboard/test/links/" + id + "/qr.svg\" download=\"payment-link-qr.svg\"");
        var qr = developer.get("/dashboard/test/links/" + id + "/qr.svg");
        assertThat(qr.status()).isEqualTo(200);
        assertThat(qr.header("Content-Type")).startsWith("image/svg+xml");
        assertThat(CollectFixtures.decodeSvg(qr.body())).isEqualTo(url);
        assertThat(developer.get("/dashboard/test/links").body()).contains(id, "ZAR 150.00", "Invoice 12");

        // A bad amount: refused beside the field, nothing made; the API's own words for a bad email.
        String again = CollectFixtures.formField(developer.get("/dashboard/test/links/new").body(),
                "/dashboard/test/links", "idempotency_key");
        fields.putAll(Map.of("amount", "1,50", "customer_email", "not-an-email", "idempotency_key", again));
        var refused = developer.post("/dashboard/test/links", fields);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("id=\"l-amount-error\"", "Enter an amount such as 10.50 (in ZAR).",
                "id=\"l-email-error\"", "aria-invalid=\"true\"", "value=\"not-an-email\"");
        assertThat(test.get("/collect/payment_requests").get("data")).hasSize(1);
        fields.putAll(Map.of("amount", "150.00", "customer_email", "", "currency", "ZZZ"));
        var badCurrency = developer.post("/dashboard/test/links", fields);
        assertThat(badCurrency.status()).isEqualTo(400);
        assertThat(badCurrency.body()).contains("id=\"l-currency-error\"", "is not an active ISO 4217 currency code");
        assertThat(test.get("/collect/payment_requests").get("data")).hasSize(1);

        // Another merchant's or mode's request is not found, nor its QR code.
        DashboardClient stranger = DashboardClient.member(base(), merchants, merchants.create(), "owner", "127.0.0.81");
        assertThat(stranger.get("/dashboard/test/links/" + id).status()).isEqualTo(404);
        assertThat(stranger.get("/dashboard/test/links/" + id).body()).contains("Payment request not found")
                .doesNotContain(url);
        assertThat(stranger.get("/dashboard/test/links/" + id + "/qr.svg").status()).isEqualTo(404);
        assertThat(developer.get("/dashboard/live/links/" + id).status()).isEqualTo(404);
        assertThat(stranger.post("/dashboard/test/links/" + id + "/cancel", Map.of("idempotency_key",
                java.util.UUID.randomUUID().toString(), "confirmed", "yes")).status()).isEqualTo(404);
        assertThat(test.get("/collect/payment_requests/" + id).get("status").stringValue()).isEqualTo("active");
    }

    @Test
    void cancellingARequestAsksFirstThenCancelsOnceAndAViewerCannot() {
        JsonNode request = expect(201, merchant.test().post("/collect/payment_requests",
                "{\"amount\":2500,\"currency\":\"ZAR\",\"description\":\"Deposit\"}").send());
        String id = request.get("id").stringValue();

        DashboardClient viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.81");
        assertThat(viewer.get("/dashboard/test/links").body()).contains(id).doesNotContain("Create a payment link");
        assertThat(viewer.get("/dashboard/test/links/" + id).body()).contains("ZAR 25.00")
                .doesNotContain("/cancel\"", "idempotency_key");
        assertThat(viewer.get("/dashboard/test/links/new").status()).as("the viewer is sent to the list")
                .isEqualTo(303);
        String forged = java.util.UUID.randomUUID().toString();
        assertThat(viewer.post("/dashboard/test/links", Map.of("amount", "10.00", "currency", "ZAR",
                "idempotency_key", forged)).status()).isEqualTo(403);
        assertThat(viewer.post("/dashboard/test/links/" + id + "/cancel", Map.of("idempotency_key", forged,
                "confirmed", "yes")).status()).isEqualTo(403);
        assertThat(test.get("/collect/payment_requests").get("data")).hasSize(1);

        String action = "/dashboard/test/links/" + id + "/cancel";
        String key = CollectFixtures.formField(developer.get("/dashboard/test/links/" + id).body(), action,
                "idempotency_key");
        var confirm = developer.post(action, Map.of("idempotency_key", key));
        assertThat(confirm.status()).isEqualTo(200);
        assertThat(confirm.body()).contains("Cancel the request for ZAR 25.00?", "name=\"confirmed\" value=\"yes\"");
        assertThat(test.get("/collect/payment_requests/" + id).get("status").stringValue())
                .as("nothing before the confirmation").isEqualTo("active");
        for (int i = 0; i < 2; i++) {
            var done = developer.post(action, Map.of("idempotency_key", key, "confirmed", "yes"));
            assertThat(done.status()).as("send " + (i + 1)).isEqualTo(303);
            assertThat(done.location()).endsWith("/dashboard/test/links/" + id + "?done=cancelled");
        }
        assertThat(test.get("/collect/payment_requests/" + id).get("status").stringValue()).isEqualTo("cancelled");
        assertThat(audited("payment_request.cancelled", id)).isEqualTo(1);
        assertThat(jdbc.sql("select before_state ->> 'status' || '>' || (after_state ->> 'status') from "
                + "dashboard_audit_log where action = 'payment_request.cancelled' and target = ?").param(id)
                .query(String.class).single()).isEqualTo("active>cancelled");
        var after = developer.get("/dashboard/test/links/" + id + "?done=cancelled");
        assertThat(after.body()).contains("The request is cancelled", "cancelled").doesNotContain(action + "\"");
        // Cancelled already: a new key meets the API's refusal, in its words, and nothing more is written.
        var again = developer.post(action, Map.of("idempotency_key", java.util.UUID.randomUUID().toString(),
                "confirmed", "yes"));
        ApiRefusals.assertShowsTheApisRefusal(again, merchant.test().delete("/collect/payment_requests/" + id).send());
        assertThat(again.status()).isEqualTo(409);
        assertThat(audited("payment_request.cancelled", id)).isEqualTo(1);
    }

    @Test
    void aRequestWithAnAttemptInFlightOffersNoCancelBecauseTheApiWouldRefuseIt() {
        JsonNode request = expect(201, merchant.test().post("/collect/payment_requests",
                "{\"amount\":3100,\"currency\":\"ZAR\"}").send());
        String id = request.get("id").stringValue();
        String action = "/dashboard/test/links/" + id + "/cancel";
        assertThat(developer.get("/dashboard/test/links/" + id).body()).as("active, nothing in flight: offered")
                .contains(action + "\"");

        // A card asked for 3-D Secure: the attempt waits for the customer, the request is still active.
        Checkout.Attempt attempt = test.startByCard(request.get("link").get("checkout_session_id").stringValue(),
                "4000000000003220");
        assertThat(attempt.status()).isEqualTo("pending");
        assertThat(test.get("/collect/payment_requests/" + id).get("status").stringValue()).isEqualTo("active");
        var refused = merchant.test().delete("/collect/payment_requests/" + id)
                .idempotencyKey(java.util.UUID.randomUUID().toString()).send();
        assertThat(refused.status()).as("the API refuses the cancel while the attempt is in flight: " + refused)
                .isEqualTo(409);
        assertThat(refused.json().get("code").stringValue()).isEqualTo("invalid_state_transition");
        assertThat(developer.get("/dashboard/test/links/" + id).body()).as("so the page does not offer it")
                .contains("ZAR 31.00", "active").doesNotContain(action + "\"");
    }

    @Test
    void aPaidRequestShowsItsPaymentAndAPaymentPageItsLinkQrCodeAndTransactions() throws Exception {
        JsonNode request = expect(201, merchant.test().post("/collect/payment_requests",
                "{\"amount\":6000,\"currency\":\"ZAR\"}").send());
        String paymentId = test.pay(request.get("link").get("checkout_session_id").stringValue(), "4242424242424242");
        var page = developer.get("/dashboard/test/links/" + request.get("id").stringValue());
        assertThat(page.body()).contains("href=\"/dashboard/test/payments/" + paymentId + "\"", "paid")
                .doesNotContain("Cancel the request");

        JsonNode paymentPage = expect(201, merchant.test().post("/collect/payment_pages", "{\"title\":\"Car wash\","
                + "\"currency\":\"ZAR\",\"amount\":9000,\"requires_customer_details\":false}").send());
        String pageId = paymentPage.get("id").stringValue();
        String pagePayment = payThroughPage(paymentPage);
        JsonNode otherPage = expect(201, merchants.create().test().post("/collect/payment_pages",
                "{\"title\":\"Not yours\",\"currency\":\"ZAR\",\"amount\":100}").send());

        var list = developer.get("/dashboard/test/links/pages");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains("Car wash", pageId, "ZAR 90.00", "active").doesNotContain("Not yours");
        var shown = developer.get("/dashboard/test/links/pages/" + pageId);
        assertThat(shown.status()).isEqualTo(200);
        String url = paymentPage.get("page_url").stringValue();
        assertThat(shown.body()).contains("readonly value=\"" + url + "\"",
                "src=\"/dashboard/test/links/pages/" + pageId + "/qr.svg\"",
                "href=\"/dashboard/test/payments/" + pagePayment + "\"", "succeeded");
        assertThat(shown.body())
                .containsPattern("alt=\"QR code of the payment page: a phone(&#39;|')s camera opens the page\"")
                .contains("href=\"/dashboard/test/links/pages/" + pageId + "/qr.svg\" download=\"payment-page-qr.svg\"");
        var qr = developer.get("/dashboard/test/links/pages/" + pageId + "/qr.svg");
        assertThat(CollectFixtures.decodeSvg(qr.body())).isEqualTo(url);
        assertThat(developer.get("/dashboard/test/links/pages/" + otherPage.get("id").stringValue()).status())
                .isEqualTo(404);
        assertThat(developer.get("/dashboard/live/links/pages/" + pageId).status()).isEqualTo(404);
        assertThat(developer.get("/dashboard/live/links/pages").body()).doesNotContain("Car wash");
    }

    /** A payer's visit to the page (its form, with no details asked) and the checkout paid by card: the payment. */
    private String payThroughPage(JsonNode paymentPage) {
        Api visitor = anonymous();
        String path = URI.create(paymentPage.get("page_url").stringValue()).getPath();
        var opened = visitor.get(path).send();
        assertThat(opened.status()).as(opened.toString()).isEqualTo(200);
        Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(opened.text());
        assertThat(csrf.find()).isTrue();
        var visit = visitor.post(path, "_csrf=" + java.net.URLEncoder.encode(csrf.group(1),
                        java.nio.charset.StandardCharsets.UTF_8))
                .contentType("application/x-www-form-urlencoded").header("Sec-Fetch-Site", "same-origin").send();
        assertThat(visit.status()).as(visit.toString()).isEqualTo(303);
        String location = visit.header("Location");
        return test.pay(location.substring(location.lastIndexOf('/') + 1), "4242424242424242");
    }

    private long audited(String action, String target) {
        return jdbc.sql("select count(*) from dashboard_audit_log where action = ? and target = ?")
                .params(action, target).query(Long.class).single();
    }

    private static String id(JsonNode object) {
        return object.get("id").stringValue();
    }
}
