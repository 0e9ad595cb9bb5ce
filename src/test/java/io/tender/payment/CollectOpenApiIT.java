package io.tender.payment;

import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** /openapi.json documents Collect's endpoints and schemas with §6's enums and limits. */
class CollectOpenApiIT extends ApiIntegrationTest {

    private JsonNode document() {
        var response = anonymous().get("/openapi.json").send();
        assertThat(response.status()).isEqualTo(200);
        return response.json();
    }

    /** A property's enum values, inline or of the named enum it refers to. */
    private static List<String> values(JsonNode schemas, JsonNode property) {
        String ref = property.path("$ref").stringValue("");
        return values((ref.isEmpty() ? property : schemas.get(ref.substring(ref.lastIndexOf('/') + 1))).get("enum"));
    }

    private static List<String> values(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.stringValue()));
        return values;
    }

    @Test
    void everyCollectEndpointAndSchemaIsDocumented() {
        JsonNode document = document();
        JsonNode paths = document.get("paths");
        assertThat(paths.get("/collect/payment_sessions").has("post")).isTrue();
        assertThat(paths.get("/collect/payment_sessions/{id}").has("get")).isTrue();
        assertThat(paths.get("/collect/payment_sessions/{id}/complete").has("post")).isTrue();
        assertThat(paths.get("/collect/payment_sessions/{id}/cancel").has("post")).isTrue();
        assertThat(paths.get("/collect/payments").has("get")).isTrue();
        assertThat(paths.get("/collect/payments/{id}").has("get")).isTrue();
        assertThat(paths.get("/collect/payments/{id}/captures").get("post").get("responses").has("409")).isTrue();
        assertThat(paths.get("/collect/payments/{id}/voids").has("post")).isTrue();
        assertThat(paths.propertyNames()).noneMatch(p -> p.startsWith("/checkout-api"));

        JsonNode schemas = document.get("components").get("schemas");
        JsonNode payment = schemas.get("Payment").get("properties");
        assertThat(values(schemas, payment.get("status")))
                .containsExactly("draft", "pending", "succeeded", "failed", "cancelled", "expired");
        assertThat(values(schemas, payment.get("intent"))).containsExactly("payment", "payment_method_verification");
        assertThat(values(schemas, payment.get("capture_method"))).containsExactly("automatic", "manual");
        assertThat(payment.get("amount").get("maximum").asLong()).isEqualTo(99999999);
        assertThat(payment.get("external_reference").get("pattern").stringValue()).isEqualTo("^[a-zA-Z0-9_-]+$");
        JsonNode session = schemas.get("PaymentSession").get("properties");
        assertThat(values(schemas, session.get("payment_outcome"))).containsExactly("not_started", "pending",
                "paid", "unpaid", "reserved", "payment_method_verified");
        assertThat(values(schemas, session.get("payment_status"))).containsExactly("paid", "unpaid", "pending");
        assertThat(values(schemas, session.get("status"))).containsExactly("active", "completed", "expired", "cancelled");
        JsonNode create = schemas.get("CreatePaymentSessionRequest").get("properties");
        assertThat(create.get("amount").get("maximum").asLong()).isEqualTo(99999999);
        assertThat(create.has("bill")).isTrue();
        assertThat(schemas.get("CapturePaymentRequest").get("properties").get("amount").get("minimum").asLong()).isEqualTo(1);
    }
}
