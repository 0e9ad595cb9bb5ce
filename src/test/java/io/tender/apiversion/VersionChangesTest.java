package io.tender.apiversion;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each version change both ways (decisions §15), as a table: a request in the shape of the version before the change
 * reads up into the change's shape, and an answer, an event payload or a problem in the change's shape renders down
 * into the shape before it, property order included. Rows whose shapes are equal show what a change leaves alone.
 */
class VersionChangesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<String, VersionChange> CHANGES = Map.of(
            "2026-03-15 pay button", new DisplayPayButtonRenamed(),
            "2026-03-16 not found", new PaymentNotFoundCode(),
            "2026-06-01 pay by bank", new PayByBankRenamed(),
            "2026-06-01 pending", new InFlightStatusesFolded());

    /** pay_…a1 waits for 3-D Secure, pay_…a2 has been sent without an answer, pay_…a3 is recorded, not sent. */
    private static final PaymentProgress PAYMENTS = id -> switch (id) {
        case "pay_0000000000000000000000a1" -> Optional.of(PaymentProgress.Stage.PENDING_ACTION);
        case "pay_0000000000000000000000a2" -> Optional.of(PaymentProgress.Stage.PROCESSING);
        case "pay_0000000000000000000000a3" -> Optional.of(PaymentProgress.Stage.INITIATING);
        default -> Optional.empty();
    };

    @ParameterizedTest(name = "{0}, {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            2026-03-15 pay button | POST /collect/payment_sessions | {"amount":100,"options":{"checkout_options":{"presentation_mode":"embedded_modal","displayPayButton":false,"return_url":"https://x.example"}}} | {"amount":100,"options":{"checkout_options":{"presentation_mode":"embedded_modal","display_pay_button":false,"return_url":"https://x.example"}}}
            2026-03-15 pay button | POST /collect/payment_sessions | {"amount":100,"options":{"checkout_options":{"displayPayButton":true,"display_pay_button":false}}} | {"amount":100,"options":{"checkout_options":{"displayPayButton":true,"display_pay_button":false}}}
            2026-03-15 pay button | POST /collect/payment_sessions/{id}/complete | {"displayPayButton":true} | {"displayPayButton":true}
            2026-06-01 pay by bank | POST /collect/payment_sessions | {"options":{"checkout_options":{"visible_payment_methods":["card","instant_eft"],"selected_payment_method":"instant_eft"}}} | {"options":{"checkout_options":{"visible_payment_methods":["card","pay_by_bank"],"selected_payment_method":"pay_by_bank"}}}
            2026-06-01 pay by bank | POST /collect/payment_sessions/{id}/complete | {"selected_payment_method":"instant_eft","visible_payment_methods":["instant_eft"]} | {"selected_payment_method":"pay_by_bank","visible_payment_methods":["pay_by_bank"]}
            2026-06-01 pay by bank | POST /collect/payment_requests | {"amount":500,"visible_payment_methods":["instant_eft","capitec_pay"]} | {"amount":500,"visible_payment_methods":["pay_by_bank","capitec_pay"]}
            2026-06-01 pay by bank | PATCH /collect/payment_pages/{id} | {"visible_payment_methods":["card","instant_eft"],"title":"instant_eft"} | {"visible_payment_methods":["card","pay_by_bank"],"title":"instant_eft"}
            """)
    void aRequestOfTheVersionBeforeReadsUp(String change, String route, String before, String after) {
        ObjectNode body = (ObjectNode) JSON.readTree(before);
        String[] methodAndPattern = route.split(" ");
        CHANGES.get(change).readUp(new Route(methodAndPattern[0], methodAndPattern[1]), body);
        assertThat(JSON.writeValueAsString(body)).isEqualTo(JSON.writeValueAsString(JSON.readTree(after)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            2026-03-15 pay button | {"id":"ps_0000000000000000000000a1","options":{"checkout_options":{"presentation_mode":"embedded_modal","display_pay_button":true,"payment_method_selection":"gateway"}}} | {"id":"ps_0000000000000000000000a1","options":{"checkout_options":{"presentation_mode":"embedded_modal","displayPayButton":true,"payment_method_selection":"gateway"}}}
            2026-03-15 pay button | {"id":"ps_0000000000000000000000a1","options":{"checkout_options":{"presentation_mode":"redirect"}}} | {"id":"ps_0000000000000000000000a1","options":{"checkout_options":{"presentation_mode":"redirect"}}}
            2026-03-15 pay button | {"id":"pr_0000000000000000000000a1","display_pay_button":true} | {"id":"pr_0000000000000000000000a1","display_pay_button":true}
            2026-06-01 pay by bank | {"id":"pay_0000000000000000000000a9","status":"succeeded","payment_method_details":{"type":"pay_by_bank","pay_by_bank":{"bank":"Nedbank"}},"metadata":{"how":"pay_by_bank"}} | {"id":"pay_0000000000000000000000a9","status":"succeeded","payment_method_details":{"type":"instant_eft","instant_eft":{"bank":"Nedbank"}},"metadata":{"how":"pay_by_bank"}}
            2026-06-01 pay by bank | {"id":"pay_0000000000000000000000a9","payment_method_details":{"type":"card","card":{"last4":"4242"}}} | {"id":"pay_0000000000000000000000a9","payment_method_details":{"type":"card","card":{"last4":"4242"}}}
            2026-06-01 pay by bank | {"id":"ps_0000000000000000000000a1","options":{"checkout_options":{"visible_payment_methods":["card","pay_by_bank"],"selected_payment_method":"pay_by_bank"}}} | {"id":"ps_0000000000000000000000a1","options":{"checkout_options":{"visible_payment_methods":["card","instant_eft"],"selected_payment_method":"instant_eft"}}}
            2026-06-01 pay by bank | {"id":"pr_0000000000000000000000a1","visible_payment_methods":["pay_by_bank"]} | {"id":"pr_0000000000000000000000a1","visible_payment_methods":["instant_eft"]}
            2026-06-01 pay by bank | {"id":"pp_0000000000000000000000a1","visible_payment_methods":["card","pay_by_bank"]} | {"id":"pp_0000000000000000000000a1","visible_payment_methods":["card","instant_eft"]}
            2026-06-01 pay by bank | {"id":"rdm_0000000000000000000000a1","type":"pay_by_bank"} | {"id":"rdm_0000000000000000000000a1","type":"pay_by_bank"}
            2026-06-01 pending | {"id":"pay_0000000000000000000000a1","status":"pending","amount":100} | {"id":"pay_0000000000000000000000a1","status":"pending_action","amount":100}
            2026-06-01 pending | {"id":"pay_0000000000000000000000a2","status":"pending"} | {"id":"pay_0000000000000000000000a2","status":"processing"}
            2026-06-01 pending | {"id":"pay_0000000000000000000000a3","status":"pending"} | {"id":"pay_0000000000000000000000a3","status":"initiating"}
            2026-06-01 pending | {"id":"pay_0000000000000000000000a9","status":"pending"} | {"id":"pay_0000000000000000000000a9","status":"processing"}
            2026-06-01 pending | {"id":"pay_0000000000000000000000a1","status":"succeeded"} | {"id":"pay_0000000000000000000000a1","status":"succeeded"}
            2026-06-01 pending | {"id":"ps_0000000000000000000000a1","status":"active","payment_outcome":"pending","payment_status":"pending"} | {"id":"ps_0000000000000000000000a1","status":"active","payment_outcome":"pending","payment_status":"pending"}
            """)
    void anObjectOfTheChangesVersionRendersDown(String change, String after, String before) {
        ObjectNode object = (ObjectNode) JSON.readTree(after);
        CHANGES.get(change).renderDown(object, PAYMENTS);
        assertThat(JSON.writeValueAsString(object)).isEqualTo(JSON.writeValueAsString(JSON.readTree(before)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            2026-03-16 not found | {"type":"http://localhost:8080/problems/payment_not_found","title":"Payment not found","status":404,"detail":"No such payment.","code":"payment_not_found","request_id":"req_1"} | {"type":"http://localhost:8080/problems/resource_not_found","title":"Resource not found","status":404,"detail":"No such payment.","code":"resource_not_found","request_id":"req_1"}
            2026-03-16 not found | {"type":"http://localhost:8080/problems/conflict","title":"Conflict","status":409,"code":"conflict"} | {"type":"http://localhost:8080/problems/conflict","title":"Conflict","status":409,"code":"conflict"}
            2026-03-15 pay button | {"status":400,"detail":"options.checkout_options.display_pay_button: applies to embedded modes only","code":"bad_request","errors":[{"field":"options.checkout_options.display_pay_button","message":"applies to embedded modes only"}]} | {"status":400,"detail":"options.checkout_options.displayPayButton: applies to embedded modes only","code":"bad_request","errors":[{"field":"options.checkout_options.displayPayButton","message":"applies to embedded modes only"}]}
            2026-03-15 pay button | {"status":400,"detail":"amount: is required","code":"bad_request","errors":[{"field":"amount","message":"is required"}]} | {"status":400,"detail":"amount: is required","code":"bad_request","errors":[{"field":"amount","message":"is required"}]}
            """)
    void aProblemOfTheChangesVersionRendersDown(String change, String after, String before) {
        ObjectNode problem = (ObjectNode) JSON.readTree(after);
        CHANGES.get(change).renderProblemDown(problem);
        assertThat(JSON.writeValueAsString(problem)).isEqualTo(JSON.writeValueAsString(JSON.readTree(before)));
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            payment.succeeded          | 2026-03-13 | {"id":"pay_0000000000000000000000a9","status":"succeeded","payment_method_details":{"type":"instant_eft","instant_eft":{"bank":"FNB"}}}
            payment.succeeded          | 2026-03-16 | {"id":"pay_0000000000000000000000a9","status":"succeeded","payment_method_details":{"type":"instant_eft","instant_eft":{"bank":"FNB"}}}
            payment.succeeded          | 2026-06-01 | {"id":"pay_0000000000000000000000a9","status":"succeeded","payment_method_details":{"type":"pay_by_bank","pay_by_bank":{"bank":"FNB"}}}
            """)
    void anEventPayloadIsRenderedInTheEndpointsVersion(String type, String version, String data) {
        String envelope = "{\"id\":\"evt_0000000000000000000000a1\",\"type\":\"" + type + "\",\"created_at\":"
                + "\"2026-06-02T10:00:00.000Z\",\"data\":{\"id\":\"pay_0000000000000000000000a9\",\"status\":"
                + "\"succeeded\",\"payment_method_details\":{\"type\":\"pay_by_bank\",\"pay_by_bank\":{\"bank\":\"FNB\"}}}}";
        byte[] rendered = new VersionShapes(PAYMENTS).renderEvent(ApiVersion.of(version), type,
                envelope.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        JsonNode body = JSON.readTree(rendered);
        assertThat(JSON.writeValueAsString(body.get("data"))).isEqualTo(JSON.writeValueAsString(JSON.readTree(data)));
        assertThat(body.get("type").stringValue()).isEqualTo(type);
    }
}
