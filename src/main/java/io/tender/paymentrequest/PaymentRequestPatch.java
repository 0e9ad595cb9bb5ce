package io.tender.paymentrequest;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A validated {@code PATCH /collect/payment_requests/{id}} body: the live product's patchable set (decisions §7). Null
 * fields are not given; {@code description} and {@code external_reference} given as JSON null are removed
 * ({@code Optional.empty()}); {@code metadata} merges, a null value removing its key. What a request was made with
 * (amount, currency, type, customer, bill, ...) is refused by name: cancel the request and make another.
 */
record PaymentRequestPatch(Optional<String> description, Optional<String> externalReference, Instant expiresAt,
                           Map<String, String> metadata) {

    private static final Set<String> FIELDS = Set.of("description", "external_reference", "expires_at", "metadata");
    private static final Set<String> FIXED = Set.of("amount", "currency", "type", "push", "customer", "bill", "account",
            "visible_payment_methods", "notify");

    static PaymentRequestPatch parse(JsonNode body) {
        JsonInput in = JsonInput.body(body);
        if (body != null && body.isObject()) {
            for (String name : body.propertyNames()) {
                if (FIXED.contains(name)) {
                    in.reject(name, "cannot be changed; cancel the request and create another");
                } else if (!FIELDS.contains(name)) {
                    in.reject(name, "is not a known property");
                }
            }
        }
        Optional<String> description = removable(in, body, "description",
                in.line("description", false, 1, 500));
        Optional<String> externalReference = removable(in, body, "external_reference",
                in.string("external_reference", false, 1, 255, NewPaymentRequest.EXTERNAL_REFERENCE,
                        "must match ^[a-zA-Z0-9_-]+$"));
        in.check(!explicitNull(body, "expires_at"), "expires_at", "cannot be removed");
        Instant expiresAt = in.timestamp("expires_at", false);
        Map<String, String> metadata = in.metadata("metadata", true);
        in.throwIfInvalid();
        return new PaymentRequestPatch(description, externalReference, expiresAt, metadata);
    }

    /** Null when the field is absent, empty when it is JSON null (remove it), else its valid value. */
    private static Optional<String> removable(JsonInput in, JsonNode body, String name, String value) {
        if (explicitNull(body, name)) {
            return Optional.empty();
        }
        return in.has(name) ? Optional.ofNullable(value) : null;
    }

    private static boolean explicitNull(JsonNode body, String name) {
        return body != null && body.isObject() && body.get(name) != null && body.get(name).isNull();
    }
}
