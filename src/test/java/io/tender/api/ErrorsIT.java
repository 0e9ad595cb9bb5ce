package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.FailingController;
import io.tender.support.Merchants.Merchant;
import io.tender.support.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.tender.support.ProblemAssertions.assertProblem;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/** Spec "Errors" and decisions §1 "Errors (RFC 9457)": one problem shape for every failure, and a page per code. */
@ExtendWith(OutputCaptureExtension.class)
class ErrorsIT extends ApiIntegrationTest {

    @ParameterizedTest(name = "/problems/{0}")
    @ValueSource(strings = {"bad_request", "unauthorized", "missing_authorization", "resource_not_found",
            "resource_already_exists", "conflict", "invalid_state_transition", "idempotency_conflict",
            "operation_not_allowed", "provider_error", "service_unavailable", "request_timeout", "too_many_requests",
            "internal_server_error", "payment_not_found"})
    void everyCodeOfTheSpecHasAHumanReadablePage(String code) {
        var page = anonymous().get("/problems/" + code).send();
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.text()).contains("<code>" + code + "</code>").contains("<h1>");
    }

    @Test
    void anUnknownProblemCodeIsAProblemItself() {
        assertProblem(anonymous().get("/problems/no_such_code").send(), 404, "resource_not_found");
    }

    @Test
    void everyKindOfFailureIsAProblemWithTheSameMembersAndAResolvableType() {
        Merchant merchant = merchants.create();
        Api api = merchant.test();
        String key = UUID.randomUUID().toString();
        assertThat(api.post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey(key).send().status())
                .isEqualTo(201);

        Map<String, Api.Response> failures = new LinkedHashMap<>();
        failures.put("400", api.post("/collect/redemptions", "{\"amount\":0}").send());
        failures.put("401", anonymous().get("/collect/redemptions").send());
        failures.put("401 scheme", anonymous().get("/collect/redemptions").header("Authorization", "Basic eDp5").send());
        failures.put("403", merchant.publicTest().get("/collect/redemptions").send());
        failures.put("404 id", api.get("/collect/redemptions/rdm_000000000000000000000000").send());
        failures.put("404 path", api.get("/collect/nothing-here").send());
        failures.put("405", api.method("PATCH", "/collect/redemptions", "{}").send());
        failures.put("409", api.post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey(key).send());
        failures.put("413", api.post("/collect/redemptions", "{\"pad\":\"" + "x".repeat(70_000) + "\"}").send());
        failures.put("415", api.post("/collect/redemptions", "{}").contentType("text/plain").send());
        failures.put("500", anonymous().get(FailingController.PATH).send());
        failures.put("503", merchant.live().post("/collect/redemptions", oneVoucher(validPin())).send());

        Map<String, String> expected = Map.ofEntries(Map.entry("400", "bad_request"), Map.entry("401", "unauthorized"),
                Map.entry("401 scheme", "missing_authorization"), Map.entry("403", "operation_not_allowed"),
                Map.entry("404 id", "resource_not_found"), Map.entry("404 path", "resource_not_found"),
                Map.entry("405", "bad_request"), Map.entry("409", "idempotency_conflict"),
                Map.entry("413", "bad_request"), Map.entry("415", "bad_request"),
                Map.entry("500", "internal_server_error"), Map.entry("503", "service_unavailable"));
        Set<String> requestIds = new HashSet<>();
        Set<String> types = new HashSet<>();
        failures.forEach((name, response) -> {
            int status = Integer.parseInt(name.substring(0, 3));
            JsonNode problem = assertProblem(response, status, expected.get(name));
            assertThat(problem.get("instance").stringValue()).as(name)
                    .isEqualTo(URI.create(response.raw().uri().toString()).getPath());
            assertThat(problem.get("detail").stringValue()).as(name).isNotBlank();
            assertThat(requestIds.add(problem.get("request_id").stringValue())).as("request ids are unique").isTrue();
            types.add(problem.get("type").stringValue());
        });
        // Each type URI is absolute and serves the page of its code.
        for (String type : types) {
            assertThat(URI.create(type).isAbsolute()).isTrue();
            var page = anonymous().get(URI.create(type).getPath()).send();
            assertThat(page.status()).as(type).isEqualTo(200);
            assertThat(page.contentType()).startsWith("text/html");
        }
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {"/collect/redemptions/%2Fx", "/collect/redemptions/%00", "/collect/redemptions/a%zz",
            "/collect/redemptions?external_reference=<b>", "/collect/redemptions?external_reference=a|b"})
    void requestsTheServletContainerRefusesAreProblemsTooNeverHtml(String target) {
        assertContainerProblem(RawHttp.get(port, target, merchants.create().test().key()));
    }

    @Test
    void headersOverTheSizeLimitAreAProblemTooNeverHtml() {
        assertContainerProblem(RawHttp.get(port, "/collect/redemptions", merchants.create().test().key(),
                "X-Padding: " + "a".repeat(20_000)));
    }

    private static void assertContainerProblem(RawHttp.Response response) {
        assertThat(response.status()).as(response.text()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.text()).doesNotContain("<html").doesNotContain("Tomcat");
        JsonNode problem = Api.JSON.readTree(response.body());
        assertThat(problem.get("code").stringValue()).isEqualTo("bad_request");
        assertThat(problem.get("status").intValue()).isEqualTo(400);
        assertThat(problem.get("type").stringValue()).endsWith("/problems/bad_request");
        assertThat(problem.get("title").stringValue()).isNotBlank();
        assertThat(problem.get("detail").stringValue()).isNotBlank();
        assertThat(problem.get("request_id").stringValue()).matches("^req_[a-f0-9]{24}$")
                .isEqualTo(response.header("Request-Id"));
    }

    @Test
    void successfulResponsesCarryARequestIdToo() {
        Api api = merchants.create().test();
        var created = api.post("/collect/redemptions", oneVoucher(validPin())).send();
        var listed = api.get("/collect/redemptions").send();
        assertThat(created.header("Request-Id")).matches("^req_[a-f0-9]{24}$");
        assertThat(listed.header("Request-Id")).matches("^req_[a-f0-9]{24}$").isNotEqualTo(created.header("Request-Id"));
    }

    @Test
    void anUnexpectedFailureIsA500ThatLeaksNothingButTheRequestIdTheLogAlsoCarries(CapturedOutput output) {
        var response = anonymous().get(FailingController.PATH).send();

        JsonNode problem = assertProblem(response, 500, "internal_server_error");
        assertThat(problem.get("title").stringValue()).isEqualTo("Internal server error");
        assertThat(problem.get("detail").stringValue()).contains("request_id");
        assertThat(response.text()).doesNotContain(FailingController.SECRET_IN_MESSAGE).doesNotContain("hunter2")
                .doesNotContain("IllegalStateException").doesNotContain("FailingController").doesNotContain("at io.")
                .doesNotContain("redemptions").doesNotContain("trace");
        assertThat(fieldNames(problem)).containsExactlyInAnyOrder("type", "title", "status", "detail", "instance", "code",
                "request_id");

        // Support finds the failure in the log by the request id the client quotes.
        String requestId = problem.get("request_id").stringValue();
        assertThat(output.getAll().lines().filter(line -> line.contains(requestId) && line.contains("ERROR")))
                .isNotEmpty();
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new HashSet<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
