package io.tender.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.StandardWebhooksVerifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook pages of Developers (decisions §11), over real HTTP, with real deliveries to a receiver on loopback that
 * checks every signature as a merchant's would: endpoints are added through the API's own rules (a refused URL shows
 * the API's words and adds nothing), their secret shown once; a test event and a resend of a delivered event arrive
 * signed and are listed with their answers; a rotated secret signs what follows; a disabled endpoint gets nothing;
 * the event log lists and shows events; viewers read without secrets; other merchants' and modes' ids are 404 pages.
 */
class DashboardWebhooksIT extends ApiIntegrationTest {

    private static final Pattern KEY = Pattern.compile("name=\"idempotency_key\" value=\"([0-9a-f-]{36})\"");
    private static final Pattern SECRET = Pattern.compile("id=\"signing-secret\"[^>]*value=\"(whsec_[A-Za-z0-9+/=]+)\"");
    private static final Pattern ENDPOINT_ID = Pattern.compile("we_[a-f0-9]{24}");
    private static final String LOOPBACK_REFUSED = "must not point to a loopback, private, link-local or multicast address";

    private Merchant merchant;
    private DashboardClient developer;
    private Receiver receiver;

    @BeforeEach
    void merchantWithADeveloperAndAReceiver() {
        merchant = merchants.create();
        developer = DashboardClient.member(base(), merchants, merchant, "developer", "127.0.0.81");
        receiver = Receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void anEndpointIsAddedThroughTheApisRulesItsSecretShownOnceAndARefusedUrlAddsNothing() {
        var refused = developer.post("/dashboard/test/developers/webhooks", Map.of("url", "ftp://127.0.0.1/hooks",
                "events", "all", "idempotency_key", formKey(developer, "/dashboard/test/developers/webhooks")));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("must be an absolute http or https URL").contains("aria-invalid=\"true\"")
                .contains("value=\"ftp://127.0.0.1/hooks\"");
        var noTypes = developer.post("/dashboard/test/developers/webhooks", Map.of("url", receiver.url("/hooks"),
                "events", "some", "idempotency_key", formKey(developer, "/dashboard/test/developers/webhooks")));
        assertThat(noTypes.status()).isEqualTo(400);
        assertThat(noTypes.body()).contains("must name at least one event type");
        assertThat(apiEndpoints(merchant, "test")).as("nothing added").isEmpty();

        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.81");
        var loopbackInLive = owner.post("/dashboard/live/developers/webhooks", Map.of("url", "https://127.0.0.1/hooks",
                "events", "all", "idempotency_key", formKey(owner, "/dashboard/live/developers/webhooks"),
                "reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(loopbackInLive.status()).isEqualTo(400);
        assertThat(loopbackInLive.body()).contains(LOOPBACK_REFUSED);
        assertThat(apiEndpoints(merchant, "live")).isEmpty();

        String key = formKey(developer, "/dashboard/test/developers/webhooks");
        Map<String, String> form = Map.of("url", receiver.url("/hooks"), "events", "some",
                "enabled_events", "payment.succeeded", "description", "Orders", "idempotency_key", key);
        var added = developer.post("/dashboard/test/developers/webhooks", form);
        assertThat(added.status()).isEqualTo(200);
        assertThat(added.header("Cache-Control")).contains("no-store");
        assertThat(added.body()).contains("Endpoint added").contains("shown only this once");
        String secret = secret(added);
        String id = firstEndpointId(added.body());
        JsonNode api = merchant.test().get("/webhook_endpoints/" + id).send().json();
        assertThat(api.get("url").stringValue()).isEqualTo(receiver.url("/hooks"));
        assertThat(api.get("enabled_events").get(0).stringValue()).isEqualTo("payment.succeeded");
        assertThat(api.get("description").stringValue()).isEqualTo("Orders");
        assertThat(audited("webhook_endpoint.created", id)).isEqualTo(1);

        var again = developer.post("/dashboard/test/developers/webhooks", form);
        assertThat(again.status()).as("the same form sent twice adds one endpoint").isEqualTo(200);
        assertThat(apiEndpoints(merchant, "test")).hasSize(1);
        assertThat(audited("webhook_endpoint.created", id)).isEqualTo(1);

        var list = developer.get("/dashboard/test/developers/webhooks");
        assertThat(list.body()).contains(receiver.url("/hooks")).contains("Enabled").contains("payment.succeeded")
                .doesNotContain(secret);
        assertThat(developer.get("/dashboard/test/developers/webhooks/" + id).body()).contains("Orders")
                .doesNotContain(secret).doesNotContain("whsec_");
        assertThat(jdbc.sql("select count(*) from dashboard_audit_log where after_state::text like '%whsec_%'")
                .query(Long.class).single()).as("no secret in the audit log").isZero();
    }

    @Test
    void aTestEventArrivesSignedAtThatEndpointOnlyAndADeliveredEventResentArrivesAgainAsANewAttempt() {
        Added endpoint = add(developer, receiver.url("/hooks"));
        receiver.secrets(endpoint.secret()).answer(200, "{\"ok\":true,\"note\":\"<script>alert(1)</script>\"}");
        Receiver other = Receiver.start();
        try {
            Added everything = add(developer, other.url("/all"));
            other.secrets(everything.secret());

            var sent = developer.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key",
                    formKey(developer, endpointPath(endpoint), "/test")));
            assertThat(sent.status()).isEqualTo(303);
            assertThat(sent.location()).endsWith(endpointPath(endpoint) + "?done=test");
            var first = receiver.await(r -> r.size() == 1, "the test event").getFirst();
            assertThat(first.signatureValid()).as("signed with the endpoint's secret").isTrue();
            JsonNode body = first.json();
            assertThat(body.get("type").stringValue()).isEqualTo("webhook_endpoint.test");
            assertThat(body.get("data").get("test").booleanValue()).isTrue();
            assertThat(body.get("data").get("webhook_endpoint_id").stringValue()).isEqualTo(endpoint.id());
            String eventId = first.webhookId();
            assertThat(audited("webhook_endpoint.test_sent", endpoint.id())).isEqualTo(1);

            String page = awaitPage(endpointPath(endpoint), p -> p.contains("HTTP 200"));
            assertThat(page).contains("Delivered").contains(eventId).contains("webhook_endpoint.test")
                    .contains("&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert(1)");
            assertThat(merchant.test().get("/webhook_endpoints/" + everything.id() + "/deliveries").send().json()
                    .get("data")).as("an endpoint that takes every type gets no other endpoint's test").isEmpty();
            assertThat(other.received()).isEmpty();

            String resendKey = resendKey(page, eventId);
            var resent = developer.post(endpointPath(endpoint) + "/resend", Map.of("event_id", eventId,
                    "idempotency_key", resendKey));
            assertThat(resent.status()).isEqualTo(303);
            assertThat(resent.location()).endsWith("?done=resent");
            var both = receiver.await(r -> r.size() == 2, "the resent event");
            assertThat(both.get(1).webhookId()).as("the same event, the same webhook-id").isEqualTo(eventId);
            assertThat(both.get(1).signatureValid()).isTrue();
            String after = awaitPage(endpointPath(endpoint), p -> p.contains("data-label=\"Attempt\" class=\"num\">2<"));
            assertThat(after).contains("data-label=\"Attempt\" class=\"num\">1<");
            assertThat(audited("webhook_delivery.resent", null)).isEqualTo(1);

            var twice = developer.post(endpointPath(endpoint) + "/resend", Map.of("event_id", eventId,
                    "idempotency_key", resendKey));
            assertThat(twice.status()).as("the same form again does nothing more").isEqualTo(303);
            assertThat(audited("webhook_delivery.resent", null)).isEqualTo(1);
            JsonNode attempts = merchant.test().get("/webhook_endpoints/" + endpoint.id() + "/deliveries").send()
                    .json().get("data");
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(0).get("attempt").intValue()).isEqualTo(2);
        } finally {
            other.close();
        }
    }

    /**
     * Decisions §13: whoever adds a live endpoint or holds a live secret reads (and can forge) the merchant's live
     * events, so both ask for the owner's password first and change nothing before it; test endpoints do not ask (the
     * tests above add and rotate them at once).
     */
    @Test
    void aLiveEndpointAndALiveSecretRotationAskForThePasswordFirst() {
        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.81");
        String path = "/dashboard/live/developers/webhooks";
        Map<String, String> form = Map.of("url", "https://203.0.113.10/hooks", "events", "all",
                "idempotency_key", formKey(owner, path));
        var asked = owner.post(path, form);
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you").contains("Adding a live webhook endpoint")
                .contains("value=\"https://203.0.113.10/hooks\"").doesNotContain("whsec_");
        var wrong = owner.post(path, with(form, "reauth_password", "not my password at all"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(apiEndpoints(merchant, "live")).as("nothing added before the password").isEmpty();
        var added = owner.post(path, with(form, "reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(added.status()).isEqualTo(200);
        String secret = secret(added);
        String id = firstEndpointId(added.body());
        assertThat(apiEndpoints(merchant, "live")).hasSize(1);

        DashboardClient later = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.81");
        String endpoint = path + "/" + id;
        String key = formKey(later, endpoint, "/rotate");
        assertThat(later.post(endpoint + "/rotate", Map.of("idempotency_key", key)).body())
                .contains("Rotate the signing secret?");
        var password = later.post(endpoint + "/rotate", Map.of("idempotency_key", key, "confirmed", "yes"));
        assertThat(password.status()).isEqualTo(200);
        assertThat(password.body()).contains("Confirm it is you").contains("Rotating a live signing secret")
                .contains("name=\"confirmed\" value=\"yes\"").doesNotContain("whsec_");
        JsonNode overlap = merchant.live().get("/webhook_endpoints/" + id).send().json()
                .get("previous_secret_expires_at");
        assertThat(overlap == null || overlap.isNull()).as("not rotated before the password").isTrue();
        assertThat(liveRotations(id)).isZero();
        var rotated = later.post(endpoint + "/rotate", Map.of("idempotency_key", key, "confirmed", "yes",
                "reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(rotated.status()).isEqualTo(200);
        assertThat(secret(rotated)).isNotEqualTo(secret);
        assertThat(liveRotations(id)).isEqualTo(1);
    }

    private long liveRotations(String endpointId) {
        return jdbc.sql("select count(*) from dashboard_audit_log where action = 'webhook_endpoint.secret_rotated' "
                + "and target = ? and mode = 'live'").param(endpointId).query(Long.class).single();
    }

    private static Map<String, String> with(Map<String, String> form, String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(form);
        more.put(name, value);
        return more;
    }

    @Test
    void aRotatedSecretIsShownOnceAndSignsWhatFollowsWhileTheOldOneStillDoesForADay() {
        Added endpoint = add(developer, receiver.url("/hooks"));
        String key = formKey(developer, endpointPath(endpoint), "/rotate");
        var confirm = developer.post(endpointPath(endpoint) + "/rotate", Map.of("idempotency_key", key));
        assertThat(confirm.status()).isEqualTo(200);
        assertThat(confirm.body()).contains("Rotate the signing secret?").contains("name=\"confirmed\" value=\"yes\"");
        assertThat(audited("webhook_endpoint.secret_rotated", endpoint.id())).as("nothing before the confirmation")
                .isZero();

        var rotated = developer.post(endpointPath(endpoint) + "/rotate", Map.of("idempotency_key", key,
                "confirmed", "yes"));
        assertThat(rotated.status()).isEqualTo(200);
        assertThat(rotated.header("Cache-Control")).contains("no-store");
        assertThat(rotated.body()).contains("New signing secret").contains("The previous secret also signs");
        String fresh = secret(rotated);
        assertThat(fresh).isNotEqualTo(endpoint.secret());
        assertThat(audited("webhook_endpoint.secret_rotated", endpoint.id())).isEqualTo(1);
        JsonNode api = merchant.test().get("/webhook_endpoints/" + endpoint.id()).send().json();
        assertThat(api.get("previous_secret_expires_at")).as("the API's 24-hour overlap").isNotNull();
        String page = developer.get(endpointPath(endpoint)).body();
        assertThat(page).doesNotContain(fresh).doesNotContain(endpoint.secret()).contains("the previous secret also signs until");

        receiver.secrets(fresh);
        developer.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key",
                formKey(developer, endpointPath(endpoint), "/test")));
        var delivered = receiver.await(r -> r.size() == 1, "a delivery after the rotation").getFirst();
        assertThat(delivered.signatureValid()).as("verifies with the new secret alone").isTrue();
        assertThat(new StandardWebhooksVerifier(endpoint.secret()).verify(delivered.webhookId(),
                delivered.timestamp(), delivered.signature(), delivered.body(), Instant.now()))
                .as("and with the old one during the overlap").isTrue();
    }

    @Test
    void aDisabledEndpointGetsNoMoreDeliveriesUntilItIsEnabledAgain() {
        Added endpoint = add(developer, receiver.url("/hooks"));
        receiver.secrets(endpoint.secret());
        String key = formKey(developer, endpointPath(endpoint), "/disable");
        var confirm = developer.post(endpointPath(endpoint) + "/disable", Map.of("idempotency_key", key));
        assertThat(confirm.body()).contains("Disable this endpoint?");
        var disabled = developer.post(endpointPath(endpoint) + "/disable", Map.of("idempotency_key", key,
                "confirmed", "yes"));
        assertThat(disabled.status()).isEqualTo(303);
        JsonNode api = merchant.test().get("/webhook_endpoints/" + endpoint.id()).send().json();
        assertThat(api.get("status").stringValue()).isEqualTo("disabled");
        assertThat(api.get("disabled_reason").stringValue()).isEqualTo("disabled_by_merchant");
        assertThat(audited("webhook_endpoint.disabled", endpoint.id())).isEqualTo(1);
        var page = developer.get(endpointPath(endpoint) + "?done=disabled").body();
        assertThat(page).contains("Disabled by your team.").doesNotContain("Send test event");

        merchant.test().post("/collect/payment_sessions", "{\"amount\":1000,\"currency\":\"ZAR\"}").send();
        var forged = developer.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key",
                java.util.UUID.randomUUID().toString()));
        assertThat(forged.status()).isEqualTo(422);
        assertThat(forged.body()).contains("The webhook endpoint is disabled; enable it first.");
        sleep(Duration.ofMillis(1500)); // relay and dispatcher poll every 0.2 s here
        assertThat(receiver.received()).as("nothing reaches a disabled endpoint").isEmpty();

        var enabled = developer.post(endpointPath(endpoint) + "/enable", Map.of("idempotency_key",
                formKey(developer, endpointPath(endpoint), "/enable")));
        assertThat(enabled.status()).isEqualTo(303);
        assertThat(audited("webhook_endpoint.enabled", endpoint.id())).isEqualTo(1);
        merchant.test().post("/collect/payment_sessions", "{\"amount\":2000,\"currency\":\"ZAR\"}").send();
        var arrived = receiver.await(r -> !r.isEmpty(), "an event after enabling").getFirst();
        assertThat(arrived.json().get("type").stringValue()).isEqualTo("payment_session.created");
    }

    @Test
    void aViewerReadsEndpointsDeliveriesAndEventsButNoSecretAndNoActionAndAForgedPostIs403() {
        Added endpoint = add(developer, receiver.url("/hooks"));
        receiver.secrets(endpoint.secret());
        developer.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key",
                formKey(developer, endpointPath(endpoint), "/test")));
        String eventId = receiver.await(r -> r.size() == 1, "the test event").getFirst().webhookId();
        awaitPage(endpointPath(endpoint), p -> p.contains("HTTP 200"));

        DashboardClient viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.81");
        var list = viewer.get("/dashboard/test/developers/webhooks");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains(receiver.url("/hooks")).doesNotContain("Add an endpoint")
                .doesNotContain("idempotency_key");
        var page = viewer.get(endpointPath(endpoint));
        assertThat(page.body()).contains("HTTP 200").contains(eventId).doesNotContain("whsec_")
                .doesNotContain("Rotate secret").doesNotContain("Resend").doesNotContain("idempotency_key");
        assertThat(viewer.get("/dashboard/test/developers/events/" + eventId).body()).contains("webhook_endpoint_id");

        String anyKey = java.util.UUID.randomUUID().toString();
        assertThat(viewer.post("/dashboard/test/developers/webhooks", Map.of("url", receiver.url("/v"),
                "events", "all", "idempotency_key", anyKey)).status()).isEqualTo(403);
        assertThat(viewer.post(endpointPath(endpoint) + "/rotate", Map.of("idempotency_key", anyKey,
                "confirmed", "yes")).status()).isEqualTo(403);
        assertThat(viewer.post(endpointPath(endpoint) + "/resend", Map.of("event_id", eventId,
                "idempotency_key", anyKey)).status()).isEqualTo(403);
        assertThat(viewer.post(endpointPath(endpoint) + "/disable", Map.of("idempotency_key", anyKey,
                "confirmed", "yes")).status()).isEqualTo(403);
        assertThat(developer.post("/dashboard/live/developers/webhooks", Map.of("url", "https://203.0.113.9/",
                "events", "all", "idempotency_key", anyKey)).status()).as("live: owners only").isEqualTo(403);
        assertThat(apiEndpoints(merchant, "test")).hasSize(1);
        assertThat(merchant.test().get("/webhook_endpoints/" + endpoint.id()).send().json().get("status")
                .stringValue()).isEqualTo("enabled");
    }

    @Test
    void theEventLogListsTheModesEventsNewestFirstFiltersByTypePagesAndShowsAnEventsJsonEscaped() {
        for (int i = 0; i < 27; i++) {
            merchant.test().post("/collect/payment_sessions", "{\"amount\":" + (1000 + i) + ",\"currency\":\"ZAR\"}")
                    .send();
        }
        JsonNode marked = merchant.test().post("/collect/payment_sessions",
                "{\"amount\":5000,\"currency\":\"ZAR\",\"metadata\":{\"note\":\"<script>alert(1)</script>\"}}")
                .send().json();
        assertThat(marked.get("id")).as(marked.toString()).isNotNull();
        Added endpoint = add(developer, receiver.url("/hooks"));
        receiver.secrets(endpoint.secret());
        developer.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key",
                formKey(developer, endpointPath(endpoint), "/test")));
        // The sessions' events may reach the new endpoint too (relayed after it was added): pick the test event.
        String testEvent = receiver.await(r -> r.stream().anyMatch(DashboardWebhooksIT::isTestEvent), "the test event")
                .stream().filter(DashboardWebhooksIT::isTestEvent).findFirst().orElseThrow().webhookId();

        var all = developer.get("/dashboard/test/developers/events");
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.body()).contains("webhook_endpoint.test").contains("payment_session.created")
                .contains("Next page");
        assertThat(all.body().indexOf(testEvent)).as("newest first")
                .isLessThan(all.body().indexOf("payment_session.created</td>"));

        var sessions = developer.get("/dashboard/test/developers/events?type=payment_session.created");
        List<String> firstPage = eventIds(sessions.body());
        assertThat(firstPage).hasSize(25);
        assertThat(sessions.body()).doesNotContain(testEvent);
        Matcher next = Pattern.compile("href=\"([^\"]+)\" rel=\"next\"").matcher(sessions.body());
        assertThat(next.find()).isTrue();
        var second = developer.get(next.group(1).replace("&amp;", "&"));
        List<String> secondPage = eventIds(second.body());
        assertThat(secondPage).hasSize(3).doesNotContainAnyElementsOf(firstPage);
        assertThat(second.body()).doesNotContain("rel=\"next\"");

        var badType = developer.get("/dashboard/test/developers/events?type=payment.nonsense");
        assertThat(badType.status()).isEqualTo(400);
        assertThat(badType.body()).contains("must be one of");

        String markedEvent = firstPage.getFirst();
        var event = developer.get("/dashboard/test/developers/events/" + markedEvent);
        assertThat(event.status()).isEqualTo(200);
        assertThat(event.body()).contains("<pre class=\"json\"").contains("payment_session.created")
                .contains(marked.get("id").stringValue())
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert(1)");
        assertThat(event.body()).as("pretty-printed").containsPattern("\n  &quot;data&quot; : \\{|\n  \"data\" : \\{");

        var tested = developer.get("/dashboard/test/developers/events/" + testEvent);
        assertThat(tested.body()).contains(receiver.url("/hooks")).contains("webhook_endpoint_id");
    }

    @Test
    void anotherMerchantsOrTheOtherModesEndpointEventOrDeliveryIsANotFoundPage() {
        Added endpoint = add(developer, receiver.url("/hooks"));
        receiver.secrets(endpoint.secret());
        developer.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key",
                formKey(developer, endpointPath(endpoint), "/test")));
        String eventId = receiver.await(r -> r.size() == 1, "the test event").getFirst().webhookId();

        Merchant stranger = merchants.create();
        DashboardClient theirs = DashboardClient.member(base(), merchants, stranger, "owner", "127.0.0.82");
        var endpointPage = theirs.get(endpointPath(endpoint));
        assertThat(endpointPage.status()).isEqualTo(404);
        assertThat(endpointPage.body()).contains("Webhook endpoint not found").doesNotContain(receiver.url("/hooks"));
        var eventPage = theirs.get("/dashboard/test/developers/events/" + eventId);
        assertThat(eventPage.status()).isEqualTo(404);
        assertThat(eventPage.body()).contains("Event not found").doesNotContain("webhook_endpoint_id")
                .as("the way back: both of the developers' lists, in the mode asked")
                .contains("href=\"/dashboard/test/developers/webhooks\"", "href=\"/dashboard/test/developers/events\"")
                .contains("<title>Event not found");
        assertThat(theirs.get("/dashboard/test/developers/events").body()).doesNotContain(eventId);
        assertThat(theirs.get("/dashboard/test/developers/webhooks").body()).doesNotContain(receiver.url("/hooks"));

        String anyKey = java.util.UUID.randomUUID().toString();
        assertThat(theirs.post(endpointPath(endpoint) + "/test", Map.of("idempotency_key", anyKey)).status())
                .isEqualTo(404);
        assertThat(theirs.post(endpointPath(endpoint) + "/disable", Map.of("idempotency_key", anyKey,
                "confirmed", "yes")).status()).isEqualTo(404);
        Receiver strangers = Receiver.start();
        try {
            Added own = add(theirs, strangers.url("/theirs"));
            var resendOfOurs = theirs.post("/dashboard/test/developers/webhooks/" + own.id() + "/resend",
                    Map.of("event_id", eventId, "idempotency_key", anyKey));
            assertThat(resendOfOurs.status()).as("another merchant's event").isEqualTo(404);
            assertThat(resendOfOurs.body()).contains("Event not found");
        } finally {
            strangers.close();
        }

        DashboardClient owner = DashboardClient.member(base(), merchants, merchant, "owner", "127.0.0.81");
        assertThat(owner.get("/dashboard/live/developers/webhooks/" + endpoint.id()).status())
                .as("the other mode").isEqualTo(404);
        assertThat(owner.get("/dashboard/live/developers/events/" + eventId).status()).isEqualTo(404);
        assertThat(owner.post("/dashboard/live/developers/webhooks/" + endpoint.id() + "/rotate",
                Map.of("idempotency_key", anyKey, "confirmed", "yes")).status()).isEqualTo(404);
        assertThat(merchant.test().get("/webhook_endpoints/" + endpoint.id()).send().json()
                .get("status").stringValue()).isEqualTo("enabled");
        assertThat(audited("webhook_endpoint.secret_rotated", endpoint.id())).isZero();
        assertThat(receiver.received()).hasSize(1);
    }

    // --- helpers

    private record Added(String id, String secret) {
    }

    private Added add(DashboardClient client, String url) {
        var added = client.post("/dashboard/test/developers/webhooks", Map.of("url", url, "events", "all",
                "idempotency_key", formKey(client, "/dashboard/test/developers/webhooks")));
        assertThat(added.status()).as(added.body()).isEqualTo(200);
        return new Added(firstEndpointId(added.body()), secret(added));
    }

    private static String endpointPath(Added endpoint) {
        return "/dashboard/test/developers/webhooks/" + endpoint.id();
    }

    /** The key of the page's first form, or of the form whose action ends with {@code action}. */
    private static String formKey(DashboardClient client, String path, String... action) {
        var page = client.get(path);
        assertThat(page.status()).isEqualTo(200);
        String body = page.body();
        if (action.length > 0) {
            int at = body.indexOf(path + action[0] + "\"");
            assertThat(at).as("a form for " + action[0]).isPositive();
            body = body.substring(at);
        }
        Matcher m = KEY.matcher(body);
        assertThat(m.find()).as("a form with its key").isTrue();
        return m.group(1);
    }

    private static String resendKey(String page, String eventId) {
        Matcher m = Pattern.compile("name=\"event_id\" value=\"" + eventId + "\">\\s*<input type=\"hidden\" "
                + "name=\"idempotency_key\" value=\"([0-9a-f-]{36})\"").matcher(page);
        assertThat(m.find()).as("a resend form for " + eventId).isTrue();
        return m.group(1);
    }

    private static String secret(DashboardClient.Page page) {
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).as("the secret on the page").isTrue();
        return m.group(1);
    }

    private static String firstEndpointId(String body) {
        Matcher m = ENDPOINT_ID.matcher(body);
        assertThat(m.find()).isTrue();
        return m.group();
    }

    private static List<String> eventIds(String body) {
        Matcher m = Pattern.compile("/developers/events/(evt_[a-f0-9]{24})\"").matcher(body);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    private static JsonNode apiEndpoints(Merchant merchant, String mode) {
        return (mode.equals("test") ? merchant.test() : merchant.live()).get("/webhook_endpoints").send().json()
                .get("data");
    }

    private long audited(String action, String target) {
        return target == null
                ? jdbc.sql("select count(*) from dashboard_audit_log where action = ? and merchant_id = ?")
                .params(action, merchant.id()).query(Long.class).single()
                : jdbc.sql("select count(*) from dashboard_audit_log where action = ? and target = ? and mode = 'test'")
                .params(action, target).query(Long.class).single();
    }

    private String awaitPage(String path, Predicate<String> shows) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            String body = developer.get(path).body();
            if (shows.test(body)) {
                return body;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the page never showed what was awaited: " + body);
            }
            sleep(Duration.ofMillis(100));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A receiver on loopback that checks signatures as a merchant's would and answers a status and a body. */
    private static boolean isTestEvent(Receiver.Received received) {
        return new String(received.body(), java.nio.charset.StandardCharsets.UTF_8).contains("\"webhook_endpoint.test\"");
    }

    static final class Receiver implements AutoCloseable {

        record Received(String webhookId, String timestamp, String signature, byte[] body, boolean signatureValid) {
            JsonNode json() {
                return io.tender.support.Api.JSON.readTree(body);
            }
        }

        private final HttpServer server;
        private final List<Received> received = new CopyOnWriteArrayList<>();
        private volatile StandardWebhooksVerifier verifier;
        private volatile int status = 200;
        private volatile String answer = "";

        private Receiver(HttpServer server) {
            this.server = server;
        }

        static Receiver start() {
            try {
                HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                Receiver receiver = new Receiver(server);
                server.createContext("/", receiver::handle);
                server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
                server.start();
                return receiver;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String url(String path) {
            return "http://127.0.0.1:" + server.getAddress().getPort() + path;
        }

        Receiver secrets(String... secrets) {
            verifier = new StandardWebhooksVerifier(List.of(secrets));
            return this;
        }

        Receiver answer(int status, String body) {
            this.status = status;
            this.answer = body;
            return this;
        }

        List<Received> received() {
            return List.copyOf(received);
        }

        List<Received> await(Predicate<List<Received>> condition, String what) {
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (!condition.test(received())) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out waiting for " + what + "; received " + received().size());
                }
                sleep(Duration.ofMillis(50));
            }
            return received();
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                var headers = exchange.getRequestHeaders();
                String id = headers.getFirst("webhook-id");
                String timestamp = headers.getFirst("webhook-timestamp");
                String signature = headers.getFirst("webhook-signature");
                StandardWebhooksVerifier check = verifier;
                boolean valid = check != null && check.verify(id, timestamp, signature, body, Instant.now());
                received.add(new Received(id, timestamp, signature, body, valid));
                byte[] out = answer.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(valid ? status : 400, out.length == 0 ? -1 : out.length);
                if (out.length > 0) {
                    exchange.getResponseBody().write(out);
                }
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
