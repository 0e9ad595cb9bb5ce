package io.tender.api;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.RawHttp;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §12: redirects and problem {@code type} URIs come from the configured public base URL or are relative,
 * never from the request's {@code Host} (or {@code X-Forwarded-*}) headers. The attack reproduced: a request with
 * {@code Host: evil.example} must not send a customer, a merchant's person or a client's error link there.
 */
class ForgedHostIT extends ApiIntegrationTest {

    private static final String[] FORGED = {"Host: evil.example", "X-Forwarded-Host: evil.example",
            "X-Forwarded-Proto: https"};

    @Test
    void theCheckoutsRedirectIsRelativeWhateverHostTheRequestNames() {
        Merchant merchant = merchants.create();
        String sessionUrl = merchant.test().post("/collect/payment_sessions", "{\"amount\":1000,\"currency\":\"ZAR\"}")
                .send().json().get("session_url").stringValue();
        String checkout = URI.create(sessionUrl).getPath();

        // An open session has no bank page to act on: the checkout sends the customer back to it.
        var answer = RawHttp.send(port, "GET", checkout + "/action", null, FORGED);
        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.header("Location")).isEqualTo(checkout).doesNotContain("evil");
    }

    @Test
    void theDashboardsRedirectsAreRelativeWhateverHostTheRequestNames() {
        var signedOut = RawHttp.send(port, "GET", "/dashboard/test/payments", null, FORGED);
        assertThat(signedOut.status()).isEqualTo(302);
        assertThat(signedOut.header("Location")).isEqualTo("/dashboard/sign-in");
    }

    @Test
    void aProblemsTypeIsOnTheServicesOwnBaseWhateverHostTheRequestNames() {
        var problem = RawHttp.send(port, "GET", "/collect/payments", null, FORGED);
        assertThat(problem.status()).isEqualTo(401);
        String type = tools.jackson.databind.json.JsonMapper.builder().build().readTree(problem.text())
                .get("type").stringValue();
        assertThat(type).doesNotContain("evil").isEqualTo("http://localhost:" + port + "/problems/unauthorized");
    }

    /** Before issue 36 springdoc wrote the request's own URL as the document's server, so a forged Host was in it. */
    @Test
    void theOpenApiDocumentsServerIsTheServicesOwnBaseWhateverHostTheRequestNames() {
        var document = RawHttp.send(port, "GET", "/openapi.json", null, FORGED);
        assertThat(document.status()).isEqualTo(200);
        String server = tools.jackson.databind.json.JsonMapper.builder().build().readTree(document.text())
                .path("servers").path(0).path("url").stringValue();
        assertThat(server).doesNotContain("evil").isEqualTo("http://localhost:" + port);
    }
}
