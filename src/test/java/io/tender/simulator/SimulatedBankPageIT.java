package io.tender.simulator;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Live mode end to end on one machine, as docs/redemptions.md runs it: the packaged service against the provider simulator's
 * processor. A card that needs 3-D Secure sends the customer's browser (here plain HTTP, as with JavaScript off) from
 * the checkout to the simulator's own bank page, and its Approve back to the checkout, which then shows it paid.
 */
class SimulatedBankPageIT {

    private static final String KEY = "sk_live_" + "s1mb4".repeat(5);
    private static final HttpClient BROWSER = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aLiveThreeDSecureCardIsApprovedOnTheSimulatorsBankPageAndEndsPaid() throws Exception {
        Path root = Files.createTempDirectory("tender-simulated-bank-");
        int simulatorPort = ServiceProcess.freePort();
        int servicePort = ServiceProcess.freePort();
        try (var simulator = ServiceProcess.simulator("simulator-bank", simulatorPort, Map.of(
                     "TENDER_DATA_DIR", root.resolve("simulator").toString())).start();
             var service = ServiceProcess.service("service-bank", servicePort, Map.of(
                     "TENDER_DATA_DIR", root.resolve("service").toString(),
                     "TENDER_BOOTSTRAP_KEYS", "bank:" + KEY,
                     "TENDER_PROCESSOR_LIVE_BASEURL", "http://localhost:" + simulatorPort + "/processor")).start()) {
            Api api = new Api(service.baseUrl(), KEY);
            var created = api.post("/collect/payment_sessions", "{\"amount\":15000,\"currency\":\"ZAR\"}").send();
            assertThat(created.status()).as(created.text()).isEqualTo(201);
            String sessionUrl = created.json().get("session_url").stringValue();

            String page = get(sessionUrl).body();
            String token = field(page, "_csrf");
            var paid = post(sessionUrl + "/pay", "_csrf=" + enc(token) + "&method=card&card_number="
                    + enc("4000 0000 0000 3220") + "&expiry=" + enc("12/" + (java.time.Year.now().getValue() + 2 - 2000))
                    + "&security_code=123");
            assertThat(paid.statusCode()).isIn(302, 303);

            // The checkout sends the customer to the processor's page, which knows where to send them back.
            var toBank = get(sessionUrl);
            assertThat(toBank.statusCode()).isEqualTo(303);
            String bankUrl = toBank.headers().firstValue("Location").orElseThrow();
            assertThat(bankUrl).startsWith("http://localhost:" + simulatorPort + "/processor/operations/");
            var bankPage = get(bankUrl);
            assertThat(bankPage.statusCode()).isEqualTo(200);
            assertThat(bankPage.body()).contains("Approve", "Decline");

            var approved = post(bankUrl.substring(0, bankUrl.indexOf('?')),
                    "decision=approve&return_url=" + enc(field(bankPage.body(), "return_url")));
            assertThat(approved.statusCode()).isEqualTo(303);
            String back = approved.headers().firstValue("Location").orElseThrow();
            assertThat(back).isEqualTo(sessionUrl + "/return");
            assertThat(get(back).body()).contains("data-outcome=\"paid\"");

            JsonNode session = api.get("/collect/payment_sessions/" + created.json().get("id").stringValue()).send().json();
            assertThat(session.get("payment_outcome").stringValue()).isEqualTo("paid");
            JsonNode payment = api.get("/collect/payments/" + session.get("payment_id").stringValue()).send().json();
            assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
            assertThat(payment.get("paid_amount").longValue()).isEqualTo(15000);
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return BROWSER.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String url, String form) throws Exception {
        return BROWSER.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String field(String html, String name) {
        Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]*)\"").matcher(html);
        assertThat(m.find()).as("a %s field in the page", name).isTrue();
        return m.group(1).replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", "\"");
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
