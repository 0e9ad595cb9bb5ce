package io.tender.checkout;

import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.YearMonth;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Live mode's 3-D Secure on the processor's own page (WireMock speaking docs/processor-protocol.md): the checkout
 * sends the browser to the processor's redirect URL with a 303, passes its return route in the authorization, and on
 * return asks the processor through the status query, never by sending the authorization again. A redirect URL that
 * is not absolute https (or http on loopback) fails the attempt.
 */
class LiveCheckoutRedirectIT extends LiveProvidersIntegrationTest {

    private static final int EXP_YEAR = YearMonth.now().getYear() + 2;

    @Autowired
    private Checkout checkout;

    private final HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private Api api;

    @BeforeEach
    void liveMerchant() {
        api = merchants.create().live();
    }

    @Test
    void liveThreeDSecureGoesToTheProcessorsPageAndEndsPaidOnReturn() throws Exception {
        String redirect = PROVIDER.baseUrl() + "/acs/challenge?token=abc";
        PROVIDER.stubFor(post("/processor/authorize").willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"action_required\",\"action\":\"three_d_secure\",\"redirect_url\":\""
                        + redirect + "\"}")));
        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"action_required\",\"action\":\"three_d_secure\"}")));
        JsonNode session = session(4200);
        String ckt = session.get("checkout_session_id").stringValue();

        Checkout.Attempt attempt = checkout.payByCard(ckt, "4242424242424242", 12, EXP_YEAR, "123");
        assertThat(attempt.status()).isEqualTo("pending");

        HttpResponse<String> page = open("/checkout/" + ckt);
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue(redirect);
        // The pay form's redirect chain ends there: form-action must let it.
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("form-action 'self' https:");
        String returnUrl = base() + "/checkout/" + ckt + "/return";
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize"))
                .withRequestBody(matchingJsonPath("$.return_url", equalTo(returnUrl))));

        PROVIDER.stubFor(get(urlPathMatching("/processor/operations/.*")).willReturn(okJson(
                "{\"result\":\"approved\",\"amount\":4200,\"currency\":\"ZAR\",\"funding\":\"CREDIT\",\"reference\":{}}")));
        HttpResponse<String> back = open(URI.create(returnUrl).getPath());

        assertThat(back.statusCode()).isEqualTo(200);
        assertThat(back.body()).contains("data-outcome=\"paid\"");
        JsonNode payment = api.get("/collect/payments/" + attempt.paymentId()).send().json();
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("mode").stringValue()).isEqualTo("live");
        PROVIDER.verify(1, postRequestedFor(urlEqualTo("/processor/authorize")));
        PROVIDER.verify(getRequestedFor(urlPathMatching("/processor/operations/.*")));
    }

    @Test
    void aRedirectThatIsNotHttpsFailsTheAttemptAndIsNeverFollowed() throws Exception {
        PROVIDER.stubFor(post("/processor/authorize").willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"result\":\"action_required\",\"action\":\"three_d_secure\","
                        + "\"redirect_url\":\"http://acs.example.com/challenge?token=secret-token\"}")));
        JsonNode session = session(4300);
        String ckt = session.get("checkout_session_id").stringValue();

        Checkout.Attempt attempt = checkout.payByCard(ckt, "4242424242424242", 12, EXP_YEAR, "123");

        assertThat(attempt.status()).isEqualTo("failed");
        HttpResponse<String> page = open("/checkout/" + ckt);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).doesNotContain("acs.example.com");
        JsonNode payment = api.get("/collect/payments/" + attempt.paymentId()).send().json();
        assertThat(payment.get("status").stringValue()).isEqualTo("failed");
    }

    private JsonNode session(long amount) {
        var response = api.post("/collect/payment_sessions", "{\"amount\":" + amount + ",\"currency\":\"ZAR\"}").send();
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return response.json();
    }

    private HttpResponse<String> open(String path) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(base() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
