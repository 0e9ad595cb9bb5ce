package io.tender.webhook;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The webhook endpoints API (decisions §5): create, list, retrieve, update, delete, rotate; validation; tenancy. */
class WebhookEndpointsIT extends ApiIntegrationTest {

    private Merchant merchant;
    private Api api;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        api = merchant.test();
    }

    private JsonNode create(Api client, String body) {
        var response = client.post("/webhook_endpoints", body).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    @Test
    void createShowsTheSigningSecretOnceAndNeverAgain() {
        JsonNode created = create(api, """
                {"url":"http://127.0.0.1:9/hook","enabled_events":["redemption.confirmed","obligation.amount_applied"],
                 "description":"books"}""");

        assertThat(created.get("id").stringValue()).matches("^we_[a-f0-9]{24}$");
        assertThat(created.get("url").stringValue()).isEqualTo("http://127.0.0.1:9/hook");
        assertThat(created.get("enabled_events")).extracting(JsonNode::stringValue)
                .containsExactly("redemption.confirmed", "obligation.amount_applied");
        assertThat(created.get("description").stringValue()).isEqualTo("books");
        assertThat(created.get("status").stringValue()).isEqualTo("enabled");
        assertThat(created.get("secret").stringValue()).matches("^whsec_[A-Za-z0-9+/]{43}=$");

        String id = created.get("id").stringValue();
        var fetched = api.get("/webhook_endpoints/" + id).send();
        assertThat(fetched.status()).isEqualTo(200);
        assertThat(fetched.json().has("secret")).isFalse();
        assertThat(fetched.json().get("url").stringValue()).isEqualTo("http://127.0.0.1:9/hook");
        var list = api.get("/webhook_endpoints").send();
        assertThat(list.json().get("data")).hasSize(1);
        assertThat(list.json().get("data").get(0).has("secret")).isFalse();
        assertThat(list.text()).doesNotContain(created.get("secret").stringValue());
    }

    @Test
    void theSecretIsStoredSealedNotInClear() {
        JsonNode created = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"]}");
        byte[] sealed = jdbc.sql("select secret_sealed from webhook_endpoints where id = ?")
                .params(created.get("id").stringValue()).query(byte[].class).single();
        assertThat(new String(sealed, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain(created.get("secret").stringValue().substring(6, 20));
    }

    @Test
    void everyInvalidFieldIsReportedAtOnceAndNothingIsCreated() {
        var response = api.post("/webhook_endpoints", """
                {"url":"ftp://example.com/x","enabled_events":["redemption.confirmed","no.such_event","redemption.confirmed"],
                 "description":7,"secret":"mine"}""").send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        List<String> fields = new ArrayList<>();
        response.json().get("errors").forEach(e -> fields.add(e.get("field").stringValue()));
        assertThat(fields).containsExactlyInAnyOrder("secret", "url", "enabled_events[1]", "enabled_events[2]",
                "description");
        assertThat(api.get("/webhook_endpoints").send().json().get("data")).isEmpty();
    }

    @Test
    void urlAndEnabledEventsAreRequiredAndEnabledEventsMayNotBeEmpty() {
        var missing = api.post("/webhook_endpoints", "{}").send();
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.json().get("errors")).extracting(e -> e.get("field").stringValue())
                .containsExactlyInAnyOrder("url", "enabled_events");

        var empty = api.post("/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/\",\"enabled_events\":[]}").send();
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.json().get("errors").get(0).get("field").stringValue()).isEqualTo("enabled_events");
    }

    @Test
    void liveModeEndpointsMayNotTargetLoopbackPrivateOrMetadataAddresses() {
        for (String url : List.of("https://127.0.0.1/hook", "https://10.0.0.8/hook", "https://169.254.169.254/",
                "https://[::1]:8443/hook", "https://192.168.0.10/")) {
            var response = merchant.live().post("/webhook_endpoints",
                    "{\"url\":\"" + url + "\",\"enabled_events\":[\"*\"]}").send();
            assertThat(response.status()).as(url).isEqualTo(400);
            assertThat(response.json().get("errors").get(0).get("field").stringValue()).isEqualTo("url");
            assertThat(response.json().get("errors").get(0).get("message").stringValue()).contains("private");
        }
        var plainHttp = merchant.live().post("/webhook_endpoints",
                "{\"url\":\"http://203.0.113.10/hook\",\"enabled_events\":[\"*\"]}").send();
        assertThat(plainHttp.status()).isEqualTo(400);
        assertThat(merchant.live().get("/webhook_endpoints").send().json().get("data")).isEmpty();
    }

    @Test
    void aLiveEndpointOnAPublicHttpsAddressIsAccepted() {
        // A documentation-range address: accepted, and deleted at once (live mode has no events in these tests).
        JsonNode created = create(merchant.live(), "{\"url\":\"https://203.0.113.10/hook\",\"enabled_events\":[\"*\"]}");
        assertThat(merchant.live().delete("/webhook_endpoints/" + created.get("id").stringValue()).send().status())
                .isEqualTo(200);
    }

    @Test
    void updateChangesOnlyTheFieldsGivenAndCanDisableAndReEnable() {
        String id = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"],\"description\":\"d\"}")
                .get("id").stringValue();

        var updated = api.patch("/webhook_endpoints/" + id, "{\"enabled_events\":[\"redemption.failed\"],\"status\":\"disabled\"}").send();
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.json().get("url").stringValue()).isEqualTo("http://127.0.0.1:9/a");
        assertThat(updated.json().get("description").stringValue()).isEqualTo("d");
        assertThat(updated.json().get("enabled_events")).extracting(JsonNode::stringValue).containsExactly("redemption.failed");
        assertThat(updated.json().get("status").stringValue()).isEqualTo("disabled");
        assertThat(updated.json().get("disabled_reason").stringValue()).isEqualTo("disabled_by_merchant");
        assertThat(updated.json().has("secret")).isFalse();

        var enabled = api.patch("/webhook_endpoints/" + id, "{\"status\":\"enabled\",\"url\":\"http://127.0.0.1:9/b\"}").send();
        assertThat(enabled.json().get("status").stringValue()).isEqualTo("enabled");
        assertThat(enabled.json().has("disabled_reason")).isFalse();
        assertThat(api.get("/webhook_endpoints/" + id).send().json().get("url").stringValue()).isEqualTo("http://127.0.0.1:9/b");

        var bad = api.patch("/webhook_endpoints/" + id, "{\"status\":\"paused\",\"id\":\"we_x\"}").send();
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("errors")).extracting(e -> e.get("field").stringValue()).containsExactlyInAnyOrder("status", "id");
    }

    @Test
    void rotatingShowsANewSecretOnceAndKeepsThePreviousOneSigningFor24Hours() {
        JsonNode created = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"]}");
        String id = created.get("id").stringValue();

        var rotated = api.post("/webhook_endpoints/" + id + "/rotate_secret", null).send();
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        String newSecret = rotated.json().get("secret").stringValue();
        assertThat(newSecret).startsWith("whsec_").isNotEqualTo(created.get("secret").stringValue());
        var overlapEnds = java.time.Instant.parse(rotated.json().get("previous_secret_expires_at").stringValue());
        assertThat(overlapEnds).isBetween(java.time.Instant.now().plusSeconds(23 * 3600),
                java.time.Instant.now().plusSeconds(24 * 3600 + 60));
        assertThat(api.get("/webhook_endpoints/" + id).send().json().has("secret")).isFalse();
    }

    @Test
    void aReplayedCreateReturnsTheSameEndpointAndSecretWithoutMakingASecond() {
        String body = "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"]}";
        var first = api.post("/webhook_endpoints", body).idempotencyKey("we-create-1").send();
        var replay = api.post("/webhook_endpoints", body).idempotencyKey("we-create-1").send();

        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());
        assertThat(api.get("/webhook_endpoints").send().json().get("data")).hasSize(1);
        var conflict = api.post("/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/b\",\"enabled_events\":[\"*\"]}")
                .idempotencyKey("we-create-1").send();
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.json().get("code").stringValue()).isEqualTo("idempotency_conflict");
    }

    @Test
    void anotherMerchantOrTheOtherModeSeesNoneOfIt() {
        String id = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"]}").get("id").stringValue();
        Api stranger = merchants.create().test();

        for (Api other : List.of(stranger, merchant.live())) {
            assertThat(other.get("/webhook_endpoints/" + id).send().status()).isEqualTo(404);
            assertThat(other.patch("/webhook_endpoints/" + id, "{\"description\":\"x\"}").send().status()).isEqualTo(404);
            assertThat(other.post("/webhook_endpoints/" + id + "/rotate_secret", null).send().status()).isEqualTo(404);
            assertThat(other.get("/webhook_endpoints/" + id + "/deliveries").send().status()).isEqualTo(404);
            assertThat(other.delete("/webhook_endpoints/" + id).send().status()).isEqualTo(404);
            assertThat(other.get("/webhook_endpoints").send().json().get("data")).isEmpty();
        }
        assertThat(merchant.publicTest().get("/webhook_endpoints").send().status()).isEqualTo(403);
        assertThat(api.get("/webhook_endpoints/" + id).send().status()).isEqualTo(200);
    }

    @Test
    void theOpenApiDocumentDescribesTheWebhookAndEventEndpoints() {
        var document = anonymous().get("/openapi.json").send();
        assertThat(document.status()).isEqualTo(200);
        JsonNode paths = document.json().get("paths");
        assertThat(paths.propertyNames()).contains("/webhook_endpoints", "/webhook_endpoints/{id}",
                "/webhook_endpoints/{id}/rotate_secret", "/webhook_endpoints/{id}/deliveries", "/events",
                "/events/{id}", "/events/{id}/redeliver");
    }

    @Test
    void deleteRemovesTheEndpoint() {
        String id = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"]}").get("id").stringValue();

        var deleted = api.delete("/webhook_endpoints/" + id).send();
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().get("deleted").booleanValue()).isTrue();
        assertThat(api.get("/webhook_endpoints/" + id).send().status()).isEqualTo(404);
        assertThat(api.delete("/webhook_endpoints/" + id).send().status()).isEqualTo(404);
    }
}
