package io.tender.paymentrequest;

import io.tender.checkout.Checkout;
import io.tender.qr.QrReading;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Decisions §7 "Payment request", the API: what a request is made with and shows, every bad input (400 naming the
 * field, nothing made), lists with their filters and cursor, and tenancy (other merchants, the other mode, public
 * keys).
 */
class PaymentRequestsIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Merchants.Merchant merchant;
    private Api api;
    private Requests requests;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        requests = new Requests(api, checkout);
    }

    private int count() {
        return jdbc.sql("select count(*) from payment_requests where merchant_id = ?").param(merchant.id())
                .query(Integer.class).single();
    }

    @Test
    void aLinkRequestShowsItsFieldsAndDefaultsAndItsLinkOpensTheCheckout() {
        Instant before = Instant.now();
        JsonNode request = requests.create("\"amount\":15000,\"currency\":\"ZAR\",\"description\":\"Invoice 1001\","
                + "\"external_reference\":\"INV-1001\",\"metadata\":{\"order\":\"1001\"},"
                + "\"customer\":{\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"phone\":\"+27821234567\"}");

        assertThat(request.get("id").stringValue()).matches("^pr_[a-f0-9]{24}$");
        assertThat(request.get("type").stringValue()).isEqualTo("link");
        assertThat(request.get("status").stringValue()).isEqualTo("active");
        assertThat(request.get("amount").longValue()).isEqualTo(15000);
        assertThat(request.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(request.get("description").stringValue()).isEqualTo("Invoice 1001");
        assertThat(request.get("external_reference").stringValue()).isEqualTo("INV-1001");
        assertThat(request.get("metadata").get("order").stringValue()).isEqualTo("1001");
        assertThat(request.get("mode").stringValue()).isEqualTo("test");
        assertThat(request.get("version").intValue()).isEqualTo(1);
        assertThat(request.get("customer").get("name").stringValue()).isEqualTo("Ada Lovelace");
        assertThat(request.get("customer").get("email").stringValue()).isEqualTo("ada@example.com");
        assertThat(request.get("customer").has("id")).isFalse();
        assertThat(request.get("notify").get("email").booleanValue()).isFalse();
        assertThat(request.get("notify").get("sms").booleanValue()).isFalse();
        assertThat(request.has("payment_id")).isFalse();
        assertThat(request.has("push")).isFalse();
        assertThat(request.has("visible_payment_methods")).isFalse();
        Instant expires = Instant.parse(request.get("expires_at").stringValue());
        assertThat(expires).isCloseTo(before.plus(Duration.ofHours(24)), within(Duration.ofMinutes(1)));
        assertThat(request.get("created_at").stringValue()).matches("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$");

        String checkoutId = Requests.checkoutId(request);
        assertThat(checkoutId).matches("^ckt_[a-f0-9]{32}$");
        assertThat(request.get("link").get("url").stringValue()).isEqualTo(base() + "/checkout/" + checkoutId);
        JsonNode session = Requests.expect(200, api.get("/collect/payment_sessions/"
                + request.get("payment_session_id").stringValue()).send());
        assertThat(session.get("checkout_session_id").stringValue()).isEqualTo(checkoutId);
        assertThat(session.get("amount").longValue()).isEqualTo(15000);
        assertThat(session.get("expires_at")).isEqualTo(request.get("expires_at"));
        assertThat(session.get("external_reference").stringValue()).isEqualTo("INV-1001");

        var page = anonymous().get("/checkout/" + checkoutId).send();
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.text()).contains("Invoice 1001", "ZAR 150.00", merchant.name(), "Pay ZAR 150.00")
                .doesNotContain("Cancel payment");

        assertThat(requests.get(request)).isEqualTo(request);
        assertThat(api.get("/collect/payment_requests/" + Requests.id(request)).send().header("ETag")).isEqualTo("\"1\"");
    }

    @Test
    void aBillingCustomerIsReadFromBillingAndItsIdKept() {
        JsonNode customer = Requests.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-1\","
                + "\"name\":\"Grace Hopper\",\"email\":\"grace@example.com\",\"phone\":\"+27827654321\"}").send());
        String customerId = customer.get("id").stringValue();
        JsonNode request = requests.create("\"amount\":500,\"currency\":\"ZAR\",\"customer\":\"" + customerId + "\"");
        assertThat(request.get("customer").get("id").stringValue()).isEqualTo(customerId);
        assertThat(request.get("customer").get("name").stringValue()).isEqualTo("Grace Hopper");
        assertThat(request.get("customer").get("email").stringValue()).isEqualTo("grace@example.com");
        assertThat(request.get("customer").get("phone").stringValue()).isEqualTo("+27827654321");
        JsonNode session = Requests.expect(200, api.get("/collect/payment_sessions/"
                + request.get("payment_session_id").stringValue()).send());
        assertThat(session.get("customer_id").stringValue()).isEqualTo(customerId);

        var unknown = api.post("/collect/payment_requests", "{\"amount\":500,\"currency\":\"ZAR\","
                + "\"customer\":\"bcus_000000000000000000000000\"}").send();
        assertProblem(unknown, 404, "resource_not_found");
        var otherMerchants = merchants.create().test().post("/collect/payment_requests", "{\"amount\":500,"
                + "\"currency\":\"ZAR\",\"customer\":\"" + customerId + "\"}").send();
        assertProblem(otherMerchants, 404, "resource_not_found");
    }

    @Test
    void aPushRequestDefaultsToTwoMinutesAndCapitecPayOnly() {
        Instant before = Instant.now();
        JsonNode request = requests.push(2500, "+27821110001");
        assertThat(request.get("type").stringValue()).isEqualTo("push");
        assertThat(request.get("push").get("provider").stringValue()).isEqualTo("capitec");
        assertThat(request.get("push").get("capitec").get("phone_number").stringValue()).isEqualTo("+27821110001");
        assertThat(request.get("visible_payment_methods")).hasSize(1);
        assertThat(request.get("visible_payment_methods").get(0).stringValue()).isEqualTo("capitec_pay");
        assertThat(Instant.parse(request.get("expires_at").stringValue()))
                .isCloseTo(before.plus(Duration.ofMinutes(2)), within(Duration.ofSeconds(30)));
    }

    @Test
    void everyBadInputIsA400NamingTheFieldAndMakesNothing() {
        record Case(String body, String... fields) {
        }
        Instant now = Instant.now();
        List<Case> cases = List.of(
                new Case("{\"currency\":\"ZAR\"}", "amount"),
                new Case("{\"amount\":0,\"currency\":\"ZAR\"}", "amount"),
                new Case("{\"amount\":100000000,\"currency\":\"ZAR\"}", "amount"),
                new Case("{\"amount\":\"100\",\"currency\":\"ZAR\"}", "amount"),
                new Case("{\"amount\":100}", "currency"),
                new Case("{\"amount\":100,\"currency\":\"XXX\"}", "currency"),
                new Case("{\"amount\":100,\"currency\":\"zar\"}", "currency"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"invoice\"}", "type"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"description\":\"" + "d".repeat(501) + "\"}", "description"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"description\":\"\"}", "description"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"external_reference\":\"" + "r".repeat(256) + "\"}", "external_reference"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"external_reference\":\"has space\"}", "external_reference"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"expires_at\":\"tomorrow\"}", "expires_at"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"expires_at\":\"" + now.plus(Duration.ofMinutes(1)) + "\"}", "expires_at"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"expires_at\":\"" + now.plus(Duration.ofDays(31)) + "\"}", "expires_at"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"expires_at\":\"" + now.minus(Duration.ofHours(1)) + "\"}", "expires_at"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"metadata\":{\"k\":1}}", "metadata.k"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"metadata\":\"x\"}", "metadata"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"customer\":\"cus_1\"}", "customer"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"customer\":{}}", "customer"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"customer\":{\"email\":\"not-an-email\"}}", "customer.email"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"customer\":{\"phone\":\"0821234567\"}}", "customer.phone"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"customer\":{\"name\":\"Ada\",\"age\":36}}", "customer.age"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"bill\":\"INV-1\",\"account\":\"ACC-1\"}", "account"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"visible_payment_methods\":[\"cash\"]}", "visible_payment_methods"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"visible_payment_methods\":[]}", "visible_payment_methods"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"notify\":{\"email\":\"yes\"}}", "notify.email"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"notify\":{\"fax\":true}}", "notify.fax"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"push\":{\"provider\":\"capitec\"}}", "push"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\"}", "push"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"absa\","
                        + "\"capitec\":{\"phone_number\":\"+27821234567\"}}}", "push.provider"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\"}}",
                        "push.capitec"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\","
                        + "\"capitec\":{\"phone_number\":\"+254712345678\"}}}", "push.capitec.phone_number"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\","
                        + "\"capitec\":{\"phone_number\":\"0821234567\"}}}", "push.capitec.phone_number"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\","
                        + "\"capitec\":{\"phone_number\":\"+27821234567\"}},\"visible_payment_methods\":[\"card\"]}",
                        "visible_payment_methods"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\","
                        + "\"capitec\":{\"phone_number\":\"+27821234567\"}},\"expires_at\":\""
                        + now.plus(Duration.ofMinutes(30)) + "\"}", "expires_at"),
                new Case("{\"amount\":100,\"currency\":\"ZAR\",\"link_url\":\"https://x.example\"}", "link_url"),
                new Case("{\"amount\":-5,\"currency\":\"ZA\",\"type\":1}", "amount", "currency", "type"));
        for (Case c : cases) {
            assertBadRequest(api.post("/collect/payment_requests", c.body()).idempotencyKey("bad-" + c.hashCode())
                    .send(), c.fields());
        }
        assertThat(count()).isZero();
        assertThat(jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Integer.class).single()).isZero();
    }

    @Test
    void notifyWithoutAWayToReachTheCustomerIs400() {
        assertBadRequest(api.post("/collect/payment_requests", "{\"amount\":100,\"currency\":\"ZAR\","
                + "\"notify\":{\"email\":true}}").send(), "notify.email");
        assertBadRequest(api.post("/collect/payment_requests", "{\"amount\":100,\"currency\":\"ZAR\","
                + "\"customer\":{\"email\":\"ada@example.com\"},\"notify\":{\"sms\":true}}").send(), "notify.sms");
        JsonNode noEmail = Requests.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-2\","
                + "\"name\":\"Ada\",\"email\":\"ada@example.com\"}").send());
        assertBadRequest(api.post("/collect/payment_requests", "{\"amount\":100,\"currency\":\"ZAR\","
                + "\"customer\":\"" + noEmail.get("id").stringValue() + "\",\"notify\":{\"sms\":true}}").send(),
                "notify.sms");
        assertThat(count()).isZero();
    }

    @Test
    void notifyEmailOnAServiceWithoutMailIs422NamingTheSetting() {
        var response = api.post("/collect/payment_requests", "{\"amount\":100,\"currency\":\"ZAR\","
                + "\"customer\":{\"email\":\"ada@example.com\"},\"notify\":{\"email\":true}}").send();
        JsonNode problem = assertProblem(response, 422, "operation_not_allowed");
        assertThat(problem.get("detail").stringValue()).contains("SPRING_MAIL_HOST");
        assertThat(count()).isZero();
    }

    @Test
    void theQrCodeOfARequestEncodesItsLinkAndIsNeverCached() throws Exception {
        JsonNode request = requests.link(100);
        String path = "/collect/payment_requests/" + Requests.id(request);
        var png = api.get(path + "/qr.png?size=256").send();
        assertThat(png.status()).isEqualTo(200);
        assertThat(png.contentType()).isEqualTo("image/png");
        assertThat(png.header("Cache-Control")).contains("no-store");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png.bytes()));
        assertThat(image.getWidth()).isEqualTo(256);
        String decoded = QrReading.text(image);
        assertThat(decoded).isEqualTo(request.get("link").get("url").stringValue());

        var svg = api.get(path + "/qr.svg").send();
        assertThat(svg.status()).isEqualTo(200);
        assertThat(svg.contentType()).startsWith("image/svg+xml");
        assertThat(svg.text()).startsWith("<").contains("<svg", "viewBox");

        assertBadRequest(api.get(path + "/qr.png?size=50").send(), "size");
        assertBadRequest(api.get(path + "/qr.png?size=big").send(), "size");
        assertBadRequest(api.get(path + "/qr.png?colour=red").send(), "colour");
        assertProblem(merchants.create().test().get(path + "/qr.png").send(), 404, "resource_not_found");
        assertProblem(merchant.live().get(path + "/qr.svg").send(), 404, "resource_not_found");
        assertProblem(merchant.publicTest().get(path + "/qr.png").send(), 403, "operation_not_allowed");
        assertProblem(api.get(path + "/qr.gif").send(), 404, "resource_not_found");
    }

    @Test
    void listsNewestFirstWithFiltersAndACursor() {
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            made.addFirst(Requests.id(requests.create("\"amount\":" + (100 + i) + ",\"currency\":\"ZAR\","
                    + "\"external_reference\":\"L-" + (i % 2) + "\"")));
        }
        JsonNode push = requests.push(700, "+27821230001");
        made.addFirst(Requests.id(push));
        JsonNode cancelled = requests.create("\"amount\":800,\"currency\":\"ZAR\"");
        Requests.expect(200, requests.delete(cancelled));
        made.addFirst(Requests.id(cancelled));

        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            var page = api.get("/collect/payment_requests?limit=3" + (cursor == null ? "" : "&cursor=" + cursor)).send();
            JsonNode body = Requests.expect(200, page);
            body.get("data").forEach(r -> paged.add(r.get("id").stringValue()));
            cursor = body.get("next_cursor").isNull() ? null : body.get("next_cursor").stringValue();
            assertThat(page.header("Next-Cursor")).isEqualTo(cursor);
            assertThat(body.get("has_more").booleanValue()).isEqualTo(cursor != null);
        } while (cursor != null);
        assertThat(paged).isEqualTo(made);

        assertThat(ids("?type=push")).containsExactly(Requests.id(push));
        assertThat(ids("?status=cancelled")).containsExactly(Requests.id(cancelled));
        assertThat(ids("?external_reference=L-1")).hasSize(2);
        assertThat(ids("?status=active&type=link")).hasSize(5);
        assertThat(ids("?created_at%5Bgte%5D=2099-01-01T00:00:00.000Z")).isEmpty();
        assertBadRequest(api.get("/collect/payment_requests?status=open").send(), "status");
        assertBadRequest(api.get("/collect/payment_requests?type=qr").send(), "type");
        assertBadRequest(api.get("/collect/payment_requests?cursor=ps_1").send(), "cursor");
        assertBadRequest(api.get("/collect/payment_requests?customer=ada").send(), "customer");
        assertBadRequest(api.get("/collect/payment_requests?colour=red").send(), "colour");
        assertBadRequest(api.get("/collect/payment_requests?limit=101").send(), "limit");
    }

    private List<String> ids(String query) {
        List<String> ids = new ArrayList<>();
        Requests.expect(200, api.get("/collect/payment_requests" + query).send()).get("data")
                .forEach(r -> ids.add(r.get("id").stringValue()));
        return ids;
    }

    @Test
    void anotherMerchantTheOtherModeAndUnknownIdsSee404AndPublicKeys403() {
        JsonNode request = requests.link(100);
        String path = "/collect/payment_requests/" + Requests.id(request);
        Api other = merchants.create().test();
        for (Api stranger : List.of(other, merchant.live())) {
            assertProblem(stranger.get(path).send(), 404, "resource_not_found");
            assertProblem(stranger.patch(path, "{\"description\":\"x\"}").send(), 404, "resource_not_found");
            assertProblem(stranger.delete(path).send(), 404, "resource_not_found");
            assertThat(Requests.expect(200, stranger.get("/collect/payment_requests").send()).get("data")).isEmpty();
        }
        assertProblem(api.get("/collect/payment_requests/pr_000000000000000000000000").send(), 404, "resource_not_found");
        assertProblem(api.get("/collect/payment_requests/nonsense").send(), 404, "resource_not_found");
        for (Api publicKey : List.of(merchant.publicTest(), merchant.publicLive())) {
            assertProblem(publicKey.post("/collect/payment_requests", "{\"amount\":100,\"currency\":\"ZAR\"}").send(),
                    403, "operation_not_allowed");
            assertProblem(publicKey.get(path).send(), 403, "operation_not_allowed");
            assertProblem(publicKey.get("/collect/payment_requests").send(), 403, "operation_not_allowed");
            assertProblem(publicKey.patch(path, "{}").send(), 403, "operation_not_allowed");
            assertProblem(publicKey.delete(path).send(), 403, "operation_not_allowed");
        }
        assertThat(requests.get(request).get("status").stringValue()).isEqualTo("active");
        assertThat(requests.get(request).get("version").intValue()).isEqualTo(1);
    }

    @Test
    void aLiveRequestIsMadeWithTheLiveKeyAndStaysInLiveMode() {
        JsonNode live = Requests.expect(201, merchant.live().post("/collect/payment_requests",
                "{\"amount\":100,\"currency\":\"ZAR\"}").send());
        assertThat(live.get("mode").stringValue()).isEqualTo("live");
        assertProblem(api.get("/collect/payment_requests/" + Requests.id(live)).send(), 404, "resource_not_found");
        assertThat(Requests.expect(200, merchant.live().get("/collect/payment_requests").send()).get("data")).hasSize(1);
    }

    @Test
    void aReplayAnswersTheSameBytesAndMakesNoSecondRequest() {
        String body = "{\"amount\":4200,\"currency\":\"ZAR\",\"description\":\"Once\"}";
        var first = api.post("/collect/payment_requests", body).idempotencyKey("pr-once").send();
        var again = api.post("/collect/payment_requests", body).idempotencyKey("pr-once").send();
        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.bytes()).isEqualTo(first.bytes());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(count()).isEqualTo(1);
        assertProblem(api.post("/collect/payment_requests", "{\"amount\":4300,\"currency\":\"ZAR\"}")
                .idempotencyKey("pr-once").send(), 409, "idempotency_conflict");
    }

    @Test
    void aWebhookEndpointMaySubscribeToEveryPaymentRequestEvent() {
        var endpoint = api.post("/webhook_endpoints", "{\"url\":\"https://hooks.example/tender\",\"enabled_events\":"
                + "[\"payment_request.created\",\"payment_request.updated\",\"payment_request.paid\","
                + "\"payment_request.cancelled\",\"payment_request.expired\",\"payment_request.failed\"]}").send();
        assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);
        assertThat(endpoint.json().get("enabled_events")).hasSize(6);
    }

    @Test
    void theOpenApiDocumentDescribesPaymentRequests() {
        JsonNode document = Requests.expect(200, anonymous().get("/openapi.json").send());
        JsonNode paths = document.get("paths");
        assertThat(paths.get("/collect/payment_requests").has("post")).isTrue();
        assertThat(paths.get("/collect/payment_requests").has("get")).isTrue();
        assertThat(paths.get("/collect/payment_requests/{id}").has("get")).isTrue();
        assertThat(paths.get("/collect/payment_requests/{id}").has("patch")).isTrue();
        assertThat(paths.get("/collect/payment_requests/{id}").get("delete").get("responses").has("409")).isTrue();
        JsonNode view = document.get("components").get("schemas").get("PaymentRequest").get("properties");
        List<String> statuses = new ArrayList<>();
        assertThat(view.get("status").get("$ref").stringValue()).isEqualTo("#/components/schemas/PaymentRequestStatus");
        document.get("components").get("schemas").get("PaymentRequestStatus").get("enum")
                .forEach(s -> statuses.add(s.stringValue()));
        assertThat(statuses).containsExactly("active", "paid", "expired", "cancelled", "failed");
        assertThat(view.has("link")).isTrue();
        assertThat(view.has("notify")).isTrue();
        JsonNode create = document.get("components").get("schemas").get("CreatePaymentRequestRequest").get("properties");
        assertThat(create.get("amount").get("maximum").asLong()).isEqualTo(99999999);
        assertThat(create.has("push")).isTrue();
        assertThat(create.has("notify")).isTrue();
    }
}
