package io.tender.webhook;

import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

    /** The fuzz find (enabled_events: null answered 500) and its kin: null or a wrong JSON type in every field. */
    @ParameterizedTest(name = "POST {0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"url":"http://127.0.0.1:9/a","enabled_events":null}                       | enabled_events
            {"url":null,"enabled_events":["*"]}                                        | url
            {"url":null,"enabled_events":null}                                         | url,enabled_events
            {"url":"http://127.0.0.1:9/a","enabled_events":"*"}                        | enabled_events
            {"url":"http://127.0.0.1:9/a","enabled_events":{"0":"*"}}                  | enabled_events
            {"url":"http://127.0.0.1:9/a","enabled_events":[null]}                     | enabled_events[0]
            {"url":"http://127.0.0.1:9/a","enabled_events":[7,true,{},[]]}             | enabled_events[0],enabled_events[1],enabled_events[2],enabled_events[3]
            {"url":7,"enabled_events":["*"]}                                           | url
            {"url":["http://127.0.0.1:9/a"],"enabled_events":["*"]}                    | url
            {"url":{},"enabled_events":["*"]}                                          | url
            {"url":"http://127.0.0.1:9/a","enabled_events":["*"],"description":7}      | description
            {"url":"http://127.0.0.1:9/a","enabled_events":["*"],"description":[]}     | description
            {"url":"http://127.0.0.1:9/a","enabled_events":["*"],"description":false} | description
            {"url":"http://127.0.0.1:9/a","enabled_events":["*"],"status":null}        | status
            """)
    void nullOrAWrongTypeInAnyCreateFieldIsA400NamingItAndCreatesNothing(String body, String fields) {
        var response = api.post("/webhook_endpoints", body).send();

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("code").stringValue()).isEqualTo("bad_request");
        assertThat(response.json().get("errors")).extracting(e -> e.get("field").stringValue())
                .containsExactlyInAnyOrder(fields.split(","));
        assertThat(api.get("/webhook_endpoints").send().json().get("data")).isEmpty();
    }

    @ParameterizedTest(name = "PATCH {0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"enabled_events":null}           | enabled_events
            {"url":null}                      | url
            {"status":null}                   | status
            {"url":null,"status":null}        | url,status
            {"enabled_events":"*"}            | enabled_events
            {"enabled_events":[null]}         | enabled_events[0]
            {"enabled_events":[1]}            | enabled_events[0]
            {"url":7}                         | url
            {"url":{"href":"x"}}              | url
            {"description":7}                 | description
            {"description":{}}                | description
            {"status":true}                   | status
            {"status":["enabled"]}            | status
            """)
    void nullOrAWrongTypeInAnyPatchFieldIsA400NamingItAndChangesNothing(String body, String fields) {
        JsonNode created = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"],\"description\":\"d\"}");
        String id = created.get("id").stringValue();

        var response = api.patch("/webhook_endpoints/" + id, body).send();

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.json().get("code").stringValue()).isEqualTo("bad_request");
        assertThat(response.json().get("errors")).extracting(e -> e.get("field").stringValue())
                .containsExactlyInAnyOrder(fields.split(","));
        JsonNode after = api.get("/webhook_endpoints/" + id).send().json();
        assertThat(after.get("url").stringValue()).isEqualTo("http://127.0.0.1:9/a");
        assertThat(after.get("enabled_events")).extracting(JsonNode::stringValue).containsExactly("*");
        assertThat(after.get("description").stringValue()).isEqualTo("d");
        assertThat(after.get("status").stringValue()).isEqualTo("enabled");
    }

    @Test
    void aNullDescriptionInAPatchRemovesItAsAnEmptyStringDoes() {
        String id = create(api, "{\"url\":\"http://127.0.0.1:9/a\",\"enabled_events\":[\"*\"],\"description\":\"d\"}")
                .get("id").stringValue();

        var updated = api.patch("/webhook_endpoints/" + id, "{\"description\":null}").send();

        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.json().has("description")).isFalse();
    }

    @Test
    void aMerchantMayHave16EndpointsPerModeAndThe17thIsRefusedNamingTheLimit() {
        for (int i = 0; i < 16; i++) {
            create(api, "{\"url\":\"http://127.0.0.1:9/" + i + "\",\"enabled_events\":[\"*\"]}");
        }

        var seventeenth = api.post("/webhook_endpoints", "{\"url\":\"http://127.0.0.1:9/x\",\"enabled_events\":[\"*\"]}").send();

        assertThat(seventeenth.status()).as(seventeenth.toString()).isEqualTo(422);
        assertThat(seventeenth.contentType()).startsWith("application/problem+json");
        assertThat(seventeenth.json().get("code").stringValue()).isEqualTo("operation_not_allowed");
        assertThat(seventeenth.json().get("detail").stringValue()).contains("at most 16 webhook endpoints");
        assertThat(api.get("/webhook_endpoints?limit=100").send().json().get("data")).hasSize(16);
        // The limit is per merchant and mode: live mode still has room, and deleting one makes room again.
        create(merchant.live(), "{\"url\":\"https://203.0.113.10/hook\",\"enabled_events\":[\"*\"]}");
        String first = api.get("/webhook_endpoints?limit=1").send().json().get("data").get(0).get("id").stringValue();
        assertThat(api.delete("/webhook_endpoints/" + first).send().status()).isEqualTo(200);
        create(api, "{\"url\":\"http://127.0.0.1:9/y\",\"enabled_events\":[\"*\"]}");
    }

    @Test
    void concurrentCreatesNeverTakeAMerchantPastTheLimit() {
        for (int i = 0; i < 10; i++) {
            create(api, "{\"url\":\"http://127.0.0.1:9/" + i + "\",\"enabled_events\":[\"*\"]}");
        }

        var responses = AtOnce.send(12, i -> api.post("/webhook_endpoints",
                "{\"url\":\"http://127.0.0.1:9/race-" + i + "\",\"enabled_events\":[\"*\"]}").send());

        assertThat(responses).extracting(Api.Response::status).containsOnly(201, 422);
        assertThat(responses.stream().filter(r -> r.status() == 201).count()).isEqualTo(6);
        assertThat(jdbc.sql("select count(*) from webhook_endpoints where merchant_id = ? and mode = 'test'")
                .params(merchant.id()).query(Integer.class).single()).isEqualTo(16);
    }

    @Test
    void theDevelopersSettingDoesNotLiftTheAddressRuleForLiveMode() {
        // This context sets tender.webhooks.allow-private-targets=true: test mode reaches loopback, live mode never.
        create(api, "{\"url\":\"http://127.0.0.1:9/hook\",\"enabled_events\":[\"*\"]}");
        JsonNode live = create(merchant.live(), "{\"url\":\"https://203.0.113.10/hook\",\"enabled_events\":[\"*\"]}");
        for (String url : List.of("https://127.0.0.1/hook", "https://localhost/hook", "https://2130706433/",
                "https://[::ffff:127.0.0.1]/", "https://[2002:7f00:1::1]/", "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",
                "https://100.64.0.1/", "https://[fd00:ec2::254]/")) {
            var created = merchant.live().post("/webhook_endpoints",
                    "{\"url\":\"" + url + "\",\"enabled_events\":[\"*\"]}").send();
            assertThat(created.status()).as(url).isEqualTo(400);
            assertThat(created.json().get("errors").get(0).get("field").stringValue()).isEqualTo("url");
            var patched = merchant.live().patch("/webhook_endpoints/" + live.get("id").stringValue(),
                    "{\"url\":\"" + url + "\"}").send();
            assertThat(patched.status()).as("PATCH " + url).isEqualTo(400);
        }
        assertThat(merchant.live().get("/webhook_endpoints/" + live.get("id").stringValue()).send().json()
                .get("url").stringValue()).isEqualTo("https://203.0.113.10/hook");
    }
}
