package io.tender.apiversion;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web edge of versions (decisions §15) as Spring MVC calls it: an answer no change touches, in any version, and
 * any answer in the newest version, is the very object or bytes the controller gave (never parsed or written again:
 * redemptions' fast path); an older version's payment, list or problem is rendered down whether the controller gave
 * bytes or an object; a request body no change touches is the same tree, and an older one is read up.
 */
class VersionedBodiesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final VersionShapes SHAPES = new VersionShapes(PaymentProgress.NONE);
    private static final ApiVersion OLDEST = ApiVersions.OLDEST;

    private final AnswersRenderDown answers = new AnswersRenderDown(SHAPES, JSON);
    private final RequestsReadUp requests = new RequestsReadUp(SHAPES);

    @AfterEach
    void forgetTheRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    private Object written(String path, ApiVersion version, Object body, MediaType type) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
        if (version != null) {
            request.setAttribute(RequestVersion.RESOLVED, version);
        }
        return answers.beforeBodyWrite(body, null, type, null, new ServletServerHttpRequest(request),
                new ServletServerHttpResponse(new MockHttpServletResponse()));
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRedemptionAnswerInTheOldestVersionIsTheControllersOwnBytesOrObject() {
        byte[] created = bytes("{\"id\":\"rdm_0000000000000000000000a1\",\"status\":\"confirmed\"}");
        assertThat(written("/collect/redemptions", OLDEST, created, MediaType.APPLICATION_JSON)).isSameAs(created);
        Map<String, Object> listed = Map.of("data", java.util.List.of(), "has_more", false);
        assertThat(written("/collect/redemptions", OLDEST, listed, MediaType.APPLICATION_JSON)).isSameAs(listed);
        byte[] problem = bytes("{\"code\":\"resource_not_found\",\"status\":404}");
        assertThat(written("/billing/bills/bill_1", OLDEST, problem, MediaType.APPLICATION_PROBLEM_JSON)).isSameAs(problem);
    }

    @Test
    void anyAnswerInTheNewestVersionOrOfNoVersionIsUntouched() {
        byte[] payment = bytes("{\"id\":\"pay_0000000000000000000000a1\",\"payment_method_details\":{\"type\":\"pay_by_bank\"}}");
        assertThat(written("/collect/payments/pay_0000000000000000000000a1", ApiVersions.NEWEST, payment,
                MediaType.APPLICATION_JSON)).isSameAs(payment);
        // A request that is not the API's, or was refused before its version was chosen.
        assertThat(written("/collect/payments/pay_0000000000000000000000a1", null, payment,
                MediaType.APPLICATION_JSON)).isSameAs(payment);
        byte[] image = new byte[]{(byte) 0x89, 'P', 'N', 'G'};
        assertThat(written("/collect/payment_pages/pp_1/qr.png", OLDEST, image, MediaType.IMAGE_PNG)).isSameAs(image);
    }

    @Test
    void anOlderVersionsPaymentListOrProblemIsRenderedDownFromBytesOrAnObject() {
        byte[] payment = bytes("{\"id\":\"pay_0000000000000000000000a1\",\"status\":\"pending\","
                + "\"payment_method_details\":{\"type\":\"pay_by_bank\",\"pay_by_bank\":{\"bank\":\"FNB\"}}}");
        Object rendered = written("/collect/payments/pay_0000000000000000000000a1", OLDEST, payment,
                MediaType.APPLICATION_JSON);
        assertThat(new String((byte[]) rendered, StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"pay_0000000000000000000000a1\","
                + "\"status\":\"processing\",\"payment_method_details\":{\"type\":\"instant_eft\",\"instant_eft\":{\"bank\":\"FNB\"}}}");

        Map<String, Object> list = Map.of("data", java.util.List.of(Map.of("id", "pay_0000000000000000000000a2",
                "payment_method_details", Map.of("type", "pay_by_bank"))));
        JsonNode listed = (JsonNode) written("/collect/payments", ApiVersion.of("2026-03-16"), list,
                MediaType.APPLICATION_JSON);
        assertThat(listed.at("/data/0/payment_method_details/type").stringValue()).isEqualTo("instant_eft");

        byte[] missing = bytes("{\"type\":\"http://x/problems/payment_not_found\",\"title\":\"Payment not found\","
                + "\"status\":404,\"code\":\"payment_not_found\"}");
        JsonNode problem = JSON.readTree((byte[]) written("/collect/payment_sessions/ps_1", ApiVersion.of("2026-03-15"),
                missing, MediaType.APPLICATION_PROBLEM_JSON));
        assertThat(problem.get("code").stringValue()).isEqualTo("resource_not_found");
        assertThat(problem.get("type").stringValue()).isEqualTo("http://x/problems/resource_not_found");
    }

    private Object read(String method, String pattern, ApiVersion version, JsonNode body) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, pattern);
        request.setAttribute(RequestVersion.RESOLVED, version);
        request.setAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, pattern);
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        return requests.afterBodyRead(body, null, null, JsonNode.class, null);
    }

    @Test
    void aRequestNoChangeTouchesIsTheSameTreeAndAnOlderSessionIsReadUp() {
        JsonNode redemption = JSON.readTree("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"4000123412341237\"}}");
        assertThat(read("POST", "/collect/redemptions", OLDEST, redemption)).isSameAs(redemption);
        assertThat(redemption.toString()).isEqualTo("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"4000123412341237\"}}");

        JsonNode session = JSON.readTree("{\"amount\":100,\"options\":{\"checkout_options\":{\"displayPayButton\":false,"
                + "\"visible_payment_methods\":[\"instant_eft\"]}}}");
        JsonNode newest = session.deepCopy();
        assertThat(read("POST", "/collect/payment_sessions", ApiVersions.NEWEST, newest).toString())
                .isEqualTo(session.toString());
        assertThat(read("POST", "/collect/payment_sessions", OLDEST, session).toString()).isEqualTo("{\"amount\":100,"
                + "\"options\":{\"checkout_options\":{\"display_pay_button\":false,\"visible_payment_methods\":[\"pay_by_bank\"]}}}");
    }
}
