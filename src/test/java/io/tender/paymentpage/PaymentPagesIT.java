package io.tender.paymentpage;

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
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §7 "Payment page" over the merchant's API: every field as created and read back, every bad input a 400
 * naming its field with nothing created, PATCH / inactive / DELETE in every status, tenancy, the list, and the QR code
 * of {@code page_url}.
 */
class PaymentPagesIT extends ApiIntegrationTest {

    private static final String PAGES = "/collect/payment_pages";

    @Autowired
    private Checkout checkout;

    private Merchants.Merchant merchant;
    private Api api;
    private Pages pages;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
        pages = new Pages(api, anonymous(), checkout);
    }

    private static final String EVERY_FIELD = """
            {"title": "Park clean-up", "description": "Gloves and bags for Saturday", "currency": "ZAR",
             "amount_options": {"min": 1000, "max": 500000, "presets": [5000, 10000, 20000]},
             "return_url": "https://friends-of-the-park.example/thanks",
             "requires_customer_details": true, "requires_delivery_details": true,
             "custom_fields": [
               {"key": "team", "label": "Team", "type": "dropdown", "options": ["North", "South"], "required": true,
                "default_value": "North"},
               {"key": "note", "label": "Note to the organisers", "type": "text"}],
             "visible_payment_methods": ["card", "instant_eft"],
             "external_reference": "cleanup-2026", "metadata": {"campaign": "spring"},
             "expires_at": "%s"}""";

    @Test
    void aPageKeepsEveryFieldItWasCreatedWithAndGetShowsTheSame() {
        String expires = Instant.now().plus(Duration.ofDays(30)).toString();
        var created = api.post(PAGES, EVERY_FIELD.formatted(expires)).send();
        JsonNode page = Pages.expect(201, created);

        assertThat(page.get("id").stringValue()).matches("^pp_[a-f0-9]{32}$");
        assertThat(page.get("status").stringValue()).isEqualTo("active");
        assertThat(page.get("page_url").stringValue()).isEqualTo(base() + "/pages/" + page.get("id").stringValue());
        assertThat(page.get("title").stringValue()).isEqualTo("Park clean-up");
        assertThat(page.get("description").stringValue()).isEqualTo("Gloves and bags for Saturday");
        assertThat(page.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(page.has("amount")).isTrue();
        assertThat(page.get("amount").isNull()).as("the live product's null amount of a variable page").isTrue();
        assertThat(page.get("amount_options")).isEqualTo(Api.JSON.readTree(
                "{\"min\":1000,\"max\":500000,\"presets\":[5000,10000,20000]}"));
        assertThat(page.get("return_url").stringValue()).isEqualTo("https://friends-of-the-park.example/thanks");
        assertThat(page.get("requires_customer_details").booleanValue()).isTrue();
        assertThat(page.get("requires_delivery_details").booleanValue()).isTrue();
        assertThat(page.get("custom_fields")).isEqualTo(Api.JSON.readTree("""
                [{"key": "team", "label": "Team", "type": "dropdown", "options": ["North", "South"], "required": true,
                  "default_value": "North"},
                 {"key": "note", "label": "Note to the organisers", "type": "text", "required": false}]"""));
        assertThat(page.get("visible_payment_methods")).isEqualTo(Api.JSON.readTree("[\"card\",\"pay_by_bank\"]"));
        assertThat(page.get("external_reference").stringValue()).isEqualTo("cleanup-2026");
        assertThat(page.get("metadata")).isEqualTo(Api.JSON.readTree("{\"campaign\":\"spring\"}"));
        assertThat(Instant.parse(page.get("expires_at").stringValue()))
                .isCloseTo(Instant.parse(expires), org.assertj.core.api.Assertions.within(Duration.ofMillis(1)));
        assertThat(page.get("mode").stringValue()).isEqualTo("test");
        assertThat(page.get("created_at").stringValue()).isEqualTo(page.get("updated_at").stringValue());

        assertThat(pages.get(PAGES + "/" + page.get("id").stringValue())).isEqualTo(page);
    }

    @Test
    void aFixedAmountPageHasItsDefaultsAndNoAmountOptions() {
        JsonNode page = pages.create("\"title\":\"Entry ticket\",\"currency\":\"ZAR\",\"amount\":15000");

        assertThat(page.get("amount").longValue()).isEqualTo(15000);
        assertThat(page.has("amount_options")).isFalse();
        assertThat(page.get("requires_customer_details").booleanValue()).isTrue();
        assertThat(page.get("requires_delivery_details").booleanValue()).isFalse();
        assertThat(page.get("custom_fields")).isEmpty();
        assertThat(page.get("visible_payment_methods")).isEqualTo(Api.JSON.readTree(
                "[\"card\",\"pay_by_bank\",\"capitec_pay\",\"mobile_money\"]"));
        assertThat(page.has("return_url")).isFalse();
        assertThat(page.has("expires_at")).isFalse();
    }

    @Test
    void everyBadInputIsA400NamingItsFieldAndCreatesNothing() {
        String fixed = "\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":100";
        String variable = "\"title\":\"T\",\"currency\":\"ZAR\",";
        String field = "\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":100,\"custom_fields\":";
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("\"currency\":\"ZAR\",\"amount\":100", "title");
        cases.put("\"title\":\"\",\"currency\":\"ZAR\",\"amount\":100", "title");
        cases.put("\"title\":\"" + "t".repeat(201) + "\",\"currency\":\"ZAR\",\"amount\":100", "title");
        cases.put("\"title\":7,\"currency\":\"ZAR\",\"amount\":100", "title");
        cases.put(fixed + ",\"description\":\"" + "d".repeat(1001) + "\"", "description");
        cases.put("\"title\":\"T\",\"amount\":100", "currency");
        cases.put("\"title\":\"T\",\"currency\":\"XXX\",\"amount\":100", "currency");
        cases.put("\"title\":\"T\",\"currency\":\"zar\",\"amount\":100", "currency");
        cases.put("\"title\":\"T\",\"currency\":\"ZAR\"", "amount");
        cases.put(variable + "\"amount\":100,\"amount_options\":{\"min\":1,\"max\":2}", "amount");
        cases.put(variable + "\"amount\":0", "amount");
        cases.put(variable + "\"amount\":100000000", "amount");
        cases.put(variable + "\"amount\":\"100\"", "amount");
        cases.put(variable + "\"amount\":1.5", "amount");
        cases.put(variable + "\"amount_options\":{\"max\":100}", "amount_options.min");
        cases.put(variable + "\"amount_options\":{\"min\":0,\"max\":100}", "amount_options.min");
        cases.put(variable + "\"amount_options\":{\"min\":1,\"max\":100000000}", "amount_options.max");
        cases.put(variable + "\"amount_options\":{\"min\":500,\"max\":100}", "amount_options.max");
        cases.put(variable + "\"amount_options\":{\"min\":100,\"max\":500,\"presets\":[50]}", "amount_options.presets");
        cases.put(variable + "\"amount_options\":{\"min\":100,\"max\":500,\"presets\":[200,200]}", "amount_options.presets");
        cases.put(variable + "\"amount_options\":{\"min\":1,\"max\":500,\"presets\":[1,2,3,4,5,6,7]}", "amount_options.presets");
        cases.put(variable + "\"amount_options\":{\"min\":1,\"max\":500,\"presets\":[\"2\"]}", "amount_options.presets[0]");
        cases.put(variable + "\"amount_options\":{\"min\":1,\"max\":500,\"step\":5}", "amount_options.step");
        cases.put(variable + "\"amount_options\":[1,500]", "amount_options");
        cases.put(fixed + ",\"return_url\":\"http://shop.example/back\"", "return_url");
        cases.put(fixed + ",\"return_url\":\"ftp://shop.example/back\"", "return_url");
        cases.put(fixed + ",\"return_url\":\"https://shop.example/" + "p".repeat(480) + "\"", "return_url");
        cases.put(fixed + ",\"requires_customer_details\":\"yes\"", "requires_customer_details");
        cases.put(fixed + ",\"requires_delivery_details\":1", "requires_delivery_details");
        cases.put(field + "[" + IntStream.range(0, 11).mapToObj(i -> "{\"key\":\"k" + i
                + "\",\"label\":\"L\",\"type\":\"text\"}").collect(Collectors.joining(",")) + "]", "custom_fields");
        cases.put(field + "[{\"key\":\"Bad Key\",\"label\":\"L\",\"type\":\"text\"}]", "custom_fields[0].key");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"text\"},{\"key\":\"a\",\"label\":\"M\",\"type\":\"text\"}]",
                "custom_fields[1].key");
        cases.put(field + "[{\"key\":\"a\",\"type\":\"text\"}]", "custom_fields[0].label");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"number\"}]", "custom_fields[0].type");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"dropdown\"}]", "custom_fields[0].options");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"dropdown\",\"options\":[\"x\",\"x\"]}]",
                "custom_fields[0].options");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"text\",\"options\":[\"x\"]}]", "custom_fields[0].options");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"dropdown\",\"options\":[\"x\"],\"default_value\":\"y\"}]",
                "custom_fields[0].default_value");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"text\",\"required\":\"no\"}]", "custom_fields[0].required");
        cases.put(field + "[{\"key\":\"a\",\"label\":\"L\",\"type\":\"text\",\"hint\":\"h\"}]", "custom_fields[0].hint");
        cases.put(field + "[\"a\"]", "custom_fields[0]");
        cases.put(fixed + ",\"account\":\"\"", "account");
        cases.put(fixed + ",\"visible_payment_methods\":[\"cash\"]", "visible_payment_methods");
        cases.put(fixed + ",\"visible_payment_methods\":[]", "visible_payment_methods");
        cases.put(fixed + ",\"external_reference\":\"has space\"", "external_reference");
        cases.put(fixed + ",\"metadata\":{" + IntStream.range(0, 21).mapToObj(i -> "\"k" + i + "\":\"v\"")
                .collect(Collectors.joining(",")) + "}", "metadata");
        cases.put(fixed + ",\"metadata\":{\"k\":1}", "metadata.k");
        cases.put(fixed + ",\"expires_at\":\"2020-01-01T00:00:00Z\"", "expires_at");
        cases.put(fixed + ",\"expires_at\":\"tomorrow\"", "expires_at");
        cases.put(fixed + ",\"products\":[{\"name\":\"Mug\",\"amount\":100}]", "products");
        cases.put(fixed + ",\"status\":\"inactive\"", "status");
        cases.put(fixed + ",\"colour\":\"blue\"", "colour");

        cases.forEach((members, expected) -> {
            var response = api.post(PAGES, "{" + members + "}").idempotencyKey("bad-" + UUID.randomUUID()).send();
            JsonNode problem = assertBadRequest(response, expected);
            assertThat(problem.toString()).as("a message never quotes the value").doesNotContain("Bad Key", "has space");
        });
        var products = assertBadRequest(api.post(PAGES, "{" + fixed + ",\"products\":[]}").send(), "products");
        assertThat(products.get("errors").get(0).get("message").stringValue()).contains("not offered");
        // A live page holds return_url to https: http on localhost is for test mode only.
        assertBadRequest(merchant.live().post(PAGES, "{" + fixed + ",\"return_url\":\"http://localhost:8080/back\"}").send(),
                "return_url");
        assertThat(pages.create(fixed + ",\"return_url\":\"http://localhost:8080/back\"").get("return_url").stringValue())
                .isEqualTo("http://localhost:8080/back");

        assertThat(pages.get(PAGES).get("data")).as("only the one valid page was created").hasSize(1);
    }

    @Test
    void anAccountPageChecksTheAccountAsASessionWould() {
        pages.create("\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":100"); // unrelated: the list below has 2
        Pages.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-pages\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\"}").send());
        JsonNode account = Pages.expect(201, api.post("/billing/accounts", "{\"customer\":\"c-pages\","
                + "\"external_reference\":\"acc-pages\",\"name\":\"Levies\",\"currency\":\"ZAR\",\"payment_rules\":"
                + "{\"overpayment_allowed\":true,\"underpayment_allowed\":true,\"min_amount\":500}}").send());

        assertProblem(api.post(PAGES, "{\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":100,\"account\":\"acc-none\"}")
                .send(), 404, "resource_not_found");
        assertProblem(api.post(PAGES, "{\"title\":\"T\",\"currency\":\"USD\",\"amount\":1000,\"account\":\"acc-pages\"}")
                .send(), 422, "operation_not_allowed");
        assertProblem(api.post(PAGES, "{\"title\":\"T\",\"currency\":\"ZAR\",\"amount_options\":{\"min\":100,\"max\":900},"
                + "\"account\":\"acc-pages\"}").send(), 422, "operation_not_allowed");
        JsonNode page = pages.create("\"title\":\"Levies\",\"currency\":\"ZAR\",\"amount_options\":{\"min\":500,"
                + "\"max\":90000},\"account\":\"" + account.get("id").stringValue() + "\"");
        assertThat(page.get("account")).isEqualTo(account.get("id"));
        String path = PAGES + "/" + page.get("id").stringValue();
        assertProblem(api.patch(path, "{\"amount\":100}").send(), 422, "operation_not_allowed");
        assertBadRequest(api.patch(path, "{\"account\":\"acc-pages\"}").send(), "account");
        assertThat(pages.get(PAGES).get("data")).hasSize(2);
    }

    @Test
    void patchChangesWhatAnActivePageShows() {
        JsonNode page = pages.variable("Choir tour", "\"description\":\"Bus and meals\",\"return_url\":"
                + "\"https://choir.example\",\"external_reference\":\"tour\",\"metadata\":{\"a\":\"1\",\"b\":\"2\"},"
                + "\"custom_fields\":[{\"key\":\"voice\",\"label\":\"Voice\",\"type\":\"text\"}]");
        String path = PAGES + "/" + page.get("id").stringValue();

        JsonNode fixed = Pages.expect(200, api.patch(path, """
                {"title": "Choir tour 2026", "description": null, "amount": 25000, "return_url": null,
                 "requires_customer_details": false, "requires_delivery_details": true, "custom_fields": [],
                 "visible_payment_methods": ["card"], "external_reference": null,
                 "metadata": {"a": null, "c": "3"}}""").idempotencyKey("patch-" + UUID.randomUUID()).send());
        assertThat(fixed.get("title").stringValue()).isEqualTo("Choir tour 2026");
        assertThat(fixed.has("description")).isFalse();
        assertThat(fixed.get("amount").longValue()).isEqualTo(25000);
        assertThat(fixed.has("amount_options")).isFalse();
        assertThat(fixed.has("return_url")).isFalse();
        assertThat(fixed.get("requires_customer_details").booleanValue()).isFalse();
        assertThat(fixed.get("requires_delivery_details").booleanValue()).isTrue();
        assertThat(fixed.get("custom_fields")).isEmpty();
        assertThat(fixed.get("visible_payment_methods")).isEqualTo(Api.JSON.readTree("[\"card\"]"));
        assertThat(fixed.has("external_reference")).isFalse();
        assertThat(fixed.get("metadata")).isEqualTo(Api.JSON.readTree("{\"b\":\"2\",\"c\":\"3\"}"));
        assertThat(fixed.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(fixed.get("created_at")).isEqualTo(page.get("created_at"));
        assertThat(Instant.parse(fixed.get("updated_at").stringValue()))
                .isAfterOrEqualTo(Instant.parse(page.get("updated_at").stringValue()));

        JsonNode chosen = Pages.expect(200, api.patch(path, "{\"amount_options\":{\"min\":100,\"max\":200},"
                + "\"expires_at\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}").send());
        assertThat(chosen.get("amount").isNull()).isTrue();
        assertThat(chosen.get("amount_options")).isEqualTo(Api.JSON.readTree("{\"min\":100,\"max\":200,\"presets\":[]}"));
        assertThat(chosen.has("expires_at")).isTrue();
        assertThat(pages.get(path)).isEqualTo(chosen);

        assertBadRequest(api.patch(path, "{\"currency\":\"USD\"}").send(), "currency");
        assertBadRequest(api.patch(path, "{\"title\":null}").send(), "title");
        assertBadRequest(api.patch(path, "{\"amount\":null}").send(), "amount");
        assertBadRequest(api.patch(path, "{\"amount\":5,\"amount_options\":{\"min\":1,\"max\":9}}").send(), "amount");
        assertBadRequest(api.patch(path, "{\"status\":\"active\"}").send(), "status");
        assertBadRequest(api.patch(path, "{\"products\":[]}").send(), "products");
        assertBadRequest(api.patch(path, "{\"custom_fields\":[{\"key\":\"x\",\"type\":\"dropdown\",\"label\":\"X\"}]}")
                .send(), "custom_fields[0].options");
        assertThat(pages.get(path)).as("no bad PATCH changed anything").isEqualTo(chosen);
    }

    @Test
    void anInactivePageMayChangeWhatItShowsButStaysClosed() {
        JsonNode page = pages.variable("Raffle", "");
        String path = PAGES + "/" + page.get("id").stringValue();
        String key = "inactive-" + UUID.randomUUID();

        var first = api.patch(path + "/inactive", null).idempotencyKey(key).send();
        JsonNode inactive = Pages.expect(200, first);
        assertThat(inactive.get("status").stringValue()).isEqualTo("inactive");
        var replay = api.patch(path + "/inactive", null).idempotencyKey(key).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());
        JsonNode again = Pages.expect(200, api.patch(path + "/inactive", null).send());
        assertThat(again).as("an inactive page stays as it is").isEqualTo(inactive);
        assertBadRequest(api.patch(path + "/inactive", "{\"reason\":\"sold out\"}").send(), "reason");

        JsonNode renamed = Pages.expect(200, api.patch(path, "{\"title\":\"Raffle (sold out)\"}").send());
        assertThat(renamed.get("title").stringValue()).isEqualTo("Raffle (sold out)");
        assertThat(renamed.get("status").stringValue()).isEqualTo("inactive");
        assertProblem(api.patch(path, "{\"expires_at\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}").send(),
                409, "invalid_state_transition");
        assertThat(api.delete(path).send().status()).isEqualTo(204);
        assertProblem(api.get(path).send(), 404, "resource_not_found");
    }

    @Test
    void anExpiredPageReadsExpiredTakesNoNewExpiryAndMayBeStoppedOrDeleted() throws InterruptedException {
        JsonNode page = pages.create("\"title\":\"Flash sale\",\"currency\":\"ZAR\",\"amount\":100,\"expires_at\":\""
                + Instant.now().plusSeconds(2) + "\"");
        String path = PAGES + "/" + page.get("id").stringValue();
        assertThat(page.get("status").stringValue()).isEqualTo("active");
        JsonNode expired = awaitStatus(path, "expired");

        assertThat(pages.get(PAGES + "?status=expired").get("data").get(0).get("id")).isEqualTo(page.get("id"));
        assertThat(pages.get(PAGES + "?status=active").get("data")).isEmpty();
        JsonNode renamed = Pages.expect(200, api.patch(path, "{\"title\":\"Flash sale (over)\"}").send());
        assertThat(renamed.get("status").stringValue()).isEqualTo("expired");
        assertProblem(api.patch(path, "{\"expires_at\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}").send(),
                409, "invalid_state_transition");
        assertProblem(api.patch(path, "{\"expires_at\":null}").send(), 409, "invalid_state_transition");
        assertThat(pages.get(path).get("expires_at")).isEqualTo(expired.get("expires_at"));
        JsonNode stopped = Pages.expect(200, api.patch(path + "/inactive", null).send());
        assertThat(stopped.get("status").stringValue()).as("stopping wins over expiry").isEqualTo("inactive");
        assertThat(api.delete(path).send().status()).isEqualTo(204);
        assertProblem(api.get(path).send(), 404, "resource_not_found");
    }

    @Test
    void aDeletedPageIs404EverywhereAndIsNoLongerListed() {
        JsonNode active = pages.variable("Active", "");
        JsonNode inactive = pages.variable("Inactive", "");
        JsonNode kept = pages.variable("Kept", "");
        Pages.expect(200, api.patch(PAGES + "/" + inactive.get("id").stringValue() + "/inactive", null).send());

        for (JsonNode page : List.of(active, inactive)) {
            String path = PAGES + "/" + page.get("id").stringValue();
            var deleted = api.delete(path).send();
            assertThat(deleted.status()).isEqualTo(204);
            assertThat(deleted.bytes()).isEmpty();
            assertProblem(api.delete(path).send(), 404, "resource_not_found");
            assertProblem(api.get(path).send(), 404, "resource_not_found");
            assertProblem(api.patch(path, "{\"title\":\"x\"}").send(), 404, "resource_not_found");
            assertProblem(api.patch(path + "/inactive", null).send(), 404, "resource_not_found");
            assertProblem(api.get(path + "/transactions").send(), 404, "resource_not_found");
            assertProblem(api.get(path + "/qr.png").send(), 404, "resource_not_found");
        }
        JsonNode listed = pages.get(PAGES).get("data");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("id")).isEqualTo(kept.get("id"));
    }

    @Test
    void anotherMerchantsOrModesPageIs404AndAPublicKeyMayNotCallTheApi() {
        JsonNode page = pages.variable("Mine", "");
        String path = PAGES + "/" + page.get("id").stringValue();
        Merchants.Merchant other = merchants.create();

        for (Api stranger : List.of(other.test(), merchant.live())) {
            assertProblem(stranger.get(path).send(), 404, "resource_not_found");
            assertProblem(stranger.patch(path, "{\"title\":\"Theirs\"}").send(), 404, "resource_not_found");
            assertProblem(stranger.patch(path + "/inactive", null).send(), 404, "resource_not_found");
            assertProblem(stranger.delete(path).send(), 404, "resource_not_found");
            assertProblem(stranger.get(path + "/transactions").send(), 404, "resource_not_found");
            assertProblem(stranger.get(path + "/qr.svg").send(), 404, "resource_not_found");
            assertThat(Pages.expect(200, stranger.get(PAGES).send()).get("data")).isEmpty();
        }
        assertProblem(merchant.publicTest().post(PAGES, "{\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":1}").send(),
                403, "operation_not_allowed");
        assertProblem(merchant.publicTest().get(path).send(), 403, "operation_not_allowed");
        assertProblem(merchant.publicTest().get(PAGES).send(), 403, "operation_not_allowed");
        assertThat(pages.get(path)).isEqualTo(page);
    }

    @Test
    void theListIsNewestFirstWithCursorsAndFilters() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.addFirst(pages.variable("Page " + i, "\"external_reference\":\"ref-" + i + "\"").get("id").stringValue());
        }
        Pages.expect(200, api.patch(PAGES + "/" + ids.get(1) + "/inactive", null).send());

        var first = api.get(PAGES + "?limit=2").send();
        JsonNode firstPage = Pages.expect(200, first);
        assertThat(firstPage.get("data").findValuesAsString("id")).containsExactly(ids.get(0), ids.get(1));
        assertThat(firstPage.get("has_more").booleanValue()).isTrue();
        assertThat(first.header("Next-Cursor")).isEqualTo(ids.get(1));
        JsonNode rest = pages.get(PAGES + "?limit=2&cursor=" + ids.get(1));
        assertThat(rest.get("data").findValuesAsString("id")).containsExactly(ids.get(2));
        assertThat(rest.get("next_cursor").isNull()).isTrue();

        assertThat(pages.get(PAGES + "?status=inactive").get("data").findValuesAsString("id")).containsExactly(ids.get(1));
        assertThat(pages.get(PAGES + "?status=active").get("data").findValuesAsString("id"))
                .containsExactly(ids.get(0), ids.get(2));
        assertThat(pages.get(PAGES + "?external_reference=ref-0").get("data").findValuesAsString("id"))
                .containsExactly(ids.get(2));
        assertBadRequest(api.get(PAGES + "?status=closed").send(), "status");
        assertBadRequest(api.get(PAGES + "?cursor=pt_0000000000000000deadbeef").send(), "cursor");
        assertBadRequest(api.get(PAGES + "?colour=blue").send(), "colour");
    }

    @Test
    void randomPageIdsStillListNewestFirstAndCursorsWalkPagesOfOneInstantOnceEach() {
        // Page ids are random (decisions §1), so the list orders by created_at, then id. Four pages made at one instant
        // (their created_at set equal) and two older ones; one of those has an id of the time-ordered kind made before
        // ids were random, which still opens, lists, and names a cursor.
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            made.add(pages.variable("Page " + i, "").get("id").stringValue());
        }
        String oldId = io.tender.api.Ids.newId("pp_");
        jdbc.sql("update payment_pages set id = ? where id = ?").params(oldId, made.get(1)).update();
        made.set(1, oldId);
        jdbc.sql("update payment_pages set created_at = ? where id = any(?)")
                .params(java.time.OffsetDateTime.parse("2026-11-28T05:00:00.123Z"), made.subList(2, 6).toArray(String[]::new))
                .update();
        jdbc.sql("update payment_pages set created_at = ? where id = ?")
                .params(java.time.OffsetDateTime.parse("2026-11-28T04:00:00Z"), made.get(0)).update();
        jdbc.sql("update payment_pages set created_at = ? where id = ?")
                .params(java.time.OffsetDateTime.parse("2026-11-28T04:30:00Z"), oldId).update();
        List<String> tied = made.subList(2, 6).stream().sorted(java.util.Comparator.reverseOrder()).toList();
        List<String> expected = new ArrayList<>(tied);
        expected.add(oldId);
        expected.add(made.get(0));

        List<String> walked = new ArrayList<>();
        String cursor = null;
        do {
            var response = api.get(PAGES + "?limit=2" + (cursor == null ? "" : "&cursor=" + cursor)).send();
            JsonNode list = Pages.expect(200, response);
            walked.addAll(list.get("data").findValuesAsString("id"));
            cursor = list.get("next_cursor").isNull() ? null : list.get("next_cursor").stringValue();
            assertThat(response.header("Next-Cursor")).isEqualTo(cursor);
        } while (cursor != null);
        assertThat(walked).containsExactlyElementsOf(expected);

        // A cursor in the middle of the tie, the old id as a cursor, and a cursor whose page was deleted meanwhile.
        assertThat(pages.get(PAGES + "?cursor=" + tied.get(1)).get("data").findValuesAsString("id"))
                .containsExactlyElementsOf(expected.subList(2, 6));
        assertThat(pages.get(PAGES + "?cursor=" + oldId).get("data").findValuesAsString("id")).containsExactly(made.get(0));
        assertThat(Pages.expect(200, api.get(PAGES + "/" + oldId).send()).get("title").stringValue()).isEqualTo("Page 1");
        assertThat(anonymous().get("/pages/" + oldId).send().text()).contains("Page 1");
        Pages.expect(204, api.delete(PAGES + "/" + tied.get(1)).send());
        assertThat(pages.get(PAGES + "?cursor=" + tied.get(1)).get("data").findValuesAsString("id"))
                .containsExactlyElementsOf(expected.subList(2, 6));
        // Another merchant's page, or one that does not exist, is no cursor of this list.
        String others = merchants.create().test().post(PAGES, "{\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":100}")
                .send().json().get("id").stringValue();
        assertBadRequest(api.get(PAGES + "?cursor=" + others).send(), "cursor");
        assertBadRequest(api.get(PAGES + "?cursor=" + io.tender.api.Ids.newPublicId("pp_")).send(), "cursor");
    }

    @Test
    void theSameIdempotencyKeyCreatesOnePage() {
        String key = "create-" + UUID.randomUUID();
        String body = "{\"title\":\"Once\",\"currency\":\"ZAR\",\"amount\":500}";
        var first = api.post(PAGES, body).idempotencyKey(key).send();
        var second = api.post(PAGES, body).idempotencyKey(key).send();
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(second.bytes()).isEqualTo(first.bytes());
        assertProblem(api.post(PAGES, "{\"title\":\"Twice\",\"currency\":\"ZAR\",\"amount\":500}").idempotencyKey(key)
                .send(), 409, "idempotency_conflict");
        assertThat(pages.get(PAGES).get("data")).hasSize(1);
    }

    @Test
    void theQrCodeIsThePageUrlAsPngOrSvg() throws Exception {
        JsonNode page = pages.variable("Tip jar", "");
        String path = PAGES + "/" + page.get("id").stringValue();

        var png = api.get(path + "/qr.png?size=256").send();
        assertThat(png.status()).isEqualTo(200);
        assertThat(png.contentType()).isEqualTo("image/png");
        assertThat(png.header("Cache-Control")).contains("no-store");
        var image = ImageIO.read(new ByteArrayInputStream(png.bytes()));
        assertThat(image.getWidth()).isEqualTo(256);
        String decoded = QrReading.text(image);
        assertThat(decoded).isEqualTo(page.get("page_url").stringValue());

        var svg = api.get(path + "/qr.svg").send();
        assertThat(svg.status()).isEqualTo(200);
        assertThat(svg.contentType()).startsWith("image/svg+xml");
        assertThat(svg.text()).contains("<svg", "viewBox");

        assertBadRequest(api.get(path + "/qr.png?size=64").send(), "size");
        assertBadRequest(api.get(path + "/qr.png?size=big").send(), "size");
        assertBadRequest(api.get(path + "/qr.png?colour=red").send(), "colour");
    }

    @Test
    void theOpenApiDocumentDescribesThePageApiButNotThePublicPage() {
        JsonNode document = Pages.expect(200, anonymous().get("/openapi.json").send());
        JsonNode paths = document.get("paths");
        assertThat(paths.get(PAGES).has("post")).isTrue();
        assertThat(paths.get(PAGES).has("get")).isTrue();
        assertThat(paths.get(PAGES + "/{id}").has("patch")).isTrue();
        assertThat(paths.get(PAGES + "/{id}").get("delete").get("responses").has("204")).isTrue();
        assertThat(paths.get(PAGES + "/{id}/inactive").has("patch")).isTrue();
        assertThat(paths.get(PAGES + "/{id}/transactions").has("get")).isTrue();
        assertThat(paths.get(PAGES + "/{id}/qr.png").get("get").get("responses").get("200").get("content").has("image/png"))
                .isTrue();
        assertThat(paths.propertyNames()).noneMatch(p -> p.startsWith("/pages"));

        JsonNode schemas = document.get("components").get("schemas");
        // Statuses are named enums (each is also a list filter's): PaymentPageStatus, AttemptStatus.
        assertThat(schemas.get("PaymentPage").get("properties").get("status").get("$ref").stringValue())
                .isEqualTo("#/components/schemas/PaymentPageStatus");
        assertThat(schemas.get("PaymentPageStatus").get("enum").toString()).isEqualTo("[\"active\",\"inactive\",\"expired\"]");
        assertThat(schemas.get("PaymentPageTransaction").get("properties").get("status").get("$ref").stringValue())
                .isEqualTo("#/components/schemas/AttemptStatus");
        assertThat(schemas.get("AttemptStatus").get("enum").toString()).isEqualTo("[\"succeeded\",\"failed\"]");
        JsonNode create = schemas.get("CreatePaymentPageRequest");
        assertThat(create.get("required").toString()).contains("title", "currency");
        assertThat(create.get("properties").get("title").get("maxLength").intValue()).isEqualTo(200);
        assertThat(create.get("properties").has("products")).isFalse();
        assertThat(schemas.get("PaymentPageTransactionList").get("properties").has("prev_cursor")).isTrue();
    }

    private JsonNode awaitStatus(String path, String status) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        JsonNode page = pages.get(path);
        while (!page.get("status").stringValue().equals(status)) {
            assertThat(Instant.now()).as("the page becomes " + status).isBefore(deadline);
            Thread.sleep(200);
            page = pages.get(path);
        }
        return page;
    }
}
