package io.tender.webhook;

import io.tender.support.Api;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import io.tender.support.WebhookReceiver;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook address rule (decisions §9) in the service's production setting, where
 * {@code tender.webhooks.allow-private-targets} is left unset: a TEST key can no more point an endpoint at the
 * service's own machine or network than a live one, in any form, at creation or by a PATCH; and an endpoint that
 * points there anyway (a row from before the rule, or a name that resolves inside by the time of the attempt) is
 * never connected to. (The other test contexts set the developer's setting so their receivers can run on loopback.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
        "tender.webhooks.retry-schedule=PT0.3S",
        "tender.webhooks.timeout=PT2S",
        "tender.webhooks.poll-interval=PT0.2S",
        "tender.events.poll-interval=PT0.2S",
})
class WebhookAddressRuleIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("webhook-address-rule");
    private static final String PUBLIC_URL = "http://203.0.113.10/hook";

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    private Merchant merchant;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/", "http://127.0.0.2/", "http://localhost:5432/", "http://[::1]:22/",
            "http://0.0.0.0:8081/", "http://[::]/", "http://2130706433/", "http://0x7f000001/", "http://017700000001/",
            "http://0177.0.0.1/", "http://0x7f.1/", "http://127.1/", "http://10.0.0.5/", "http://172.20.1.1/",
            "http://192.168.1.1/", "http://100.64.0.1/", "http://169.254.169.254/latest/meta-data/",
            "http://[fe80::1]/", "http://[fd00:ec2::254]/", "http://[fc00::1]/", "http://224.0.0.251/",
            "http://[ff02::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a9fe:a9fe]/", "http://[::127.0.0.1]/",
            "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::1]/", "http://[2002:c0a8:101::]/",
            "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "http://[2001:0:7f00:1::3fff:fdd2]/"})
    void aTestKeyCannotPointAnEndpointInsideByCreateOrPatch(String url) {
        Api test = merchant.test();
        var created = test.post("/webhook_endpoints", "{\"url\":\"" + url + "\",\"enabled_events\":[\"*\"]}").send();
        assertThat(created.status()).as(created.toString()).isEqualTo(400);
        assertThat(created.json().get("code").stringValue()).isEqualTo("bad_request");
        assertThat(created.json().get("errors").get(0).get("field").stringValue()).isEqualTo("url");
        assertThat(test.get("/webhook_endpoints").send().json().get("data")).isEmpty();

        String id = endpoint(test, PUBLIC_URL).get("id").stringValue();
        var patched = test.patch("/webhook_endpoints/" + id, "{\"url\":\"" + url + "\"}").send();
        assertThat(patched.status()).as(patched.toString()).isEqualTo(400);
        assertThat(patched.json().get("errors").get(0).get("field").stringValue()).isEqualTo("url");
        assertThat(test.get("/webhook_endpoints/" + id).send().json().get("url").stringValue()).isEqualTo(PUBLIC_URL);

        var live = merchant.live().post("/webhook_endpoints",
                "{\"url\":\"" + url.replace("http:", "https:") + "\",\"enabled_events\":[\"*\"]}").send();
        assertThat(live.status()).as("live " + url).isEqualTo(400);
    }

    @Test
    void theLoopbackRefusalNamesTenderListenAndTheDevelopersSetting() {
        for (Api api : new Api[]{merchant.test(), merchant.live()}) {
            var refused = api.post("/webhook_endpoints",
                    "{\"url\":\"https://localhost:3000/webhooks\",\"enabled_events\":[\"*\"]}").send();
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            String message = refused.json().get("errors").get(0).get("message").stringValue();
            assertThat(message).startsWith("must not point to a loopback, private, link-local or multicast address")
                    .contains("tender listen --forward-to").contains("TENDER_WEBHOOKS_ALLOW_PRIVATE_TARGETS");
        }
    }

    @Test
    void publicTargetsAreStillAcceptedInTestModeOverPlainHttp() {
        assertThat(endpoint(merchant.test(), PUBLIC_URL).get("url").stringValue()).isEqualTo(PUBLIC_URL);
    }

    @Test
    void anEndpointThatPointsInsideAnywayIsNeverConnectedToAndItsLogShowsNoStatusCode() {
        try (WebhookReceiver receiver = WebhookReceiver.start()) {
            Api test = merchant.test();
            String id = endpoint(test, PUBLIC_URL).get("id").stringValue();
            // As a row written before the rule existed, or a name that now resolves to loopback, would be.
            jdbc.sql("update webhook_endpoints set url = ? where id = ?").params(receiver.url("/hooks"), id).update();

            test.post("/collect/redemptions", oneVoucher(validPin())).send();

            JsonNode attempt = awaitFirstAttempt(test, id);
            assertThat(attempt.get("status").stringValue()).isEqualTo("failed");
            assertThat(attempt.get("error").stringValue()).isEqualTo("address_not_allowed");
            assertThat(attempt.has("response_status") && !attempt.get("response_status").isNull()).isFalse();
            assertThat(receiver.received()).isEmpty();
        }
    }

    private JsonNode awaitFirstAttempt(Api api, String endpointId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            JsonNode data = api.get("/webhook_endpoints/" + endpointId + "/deliveries").send().json().get("data");
            if (!data.isEmpty()) {
                return data.get(data.size() - 1);
            }
            assertThat(System.nanoTime()).as("an attempt within 20 s").isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static JsonNode endpoint(Api api, String url) {
        var response = api.post("/webhook_endpoints", "{\"url\":\"" + url + "\",\"enabled_events\":[\"*\"]}").send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }
}
