package io.tender.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every enum whose set of values the document uses in more than one place becomes one named component, referred to
 * from each place (a status in the object and in its list's filter, the payment method types of five schemas):
 * generators then make one type for it instead of one per place (issue 36). The names are chosen here, once; an enum
 * repeated under a value set this table does not name stays inline, and {@code OpenApiShapeIT} fails naming it.
 * An enum used once stays inline, named by its property.
 */
final class NamedEnums {

    /** Value set (as a sorted set) to component name. */
    private static final Map<Set<String>, String> NAMES = new HashMap<>();

    static {
        name("PaymentMethodType", "card", "pay_by_bank", "capitec_pay", "mobile_money");
        name("Mode", "test", "live");
        name("AttemptStatus", "succeeded", "failed");
        name("RedemptionType", "vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c");
        name("RedemptionStatus", "draft", "reserved", "confirmed", "failed");
        name("PaymentRequestType", "link", "push");
        name("PaymentRequestStatus", "active", "paid", "failed", "cancelled", "expired");
        name("PushProvider", "capitec");
        name("BillStatus", "paid", "unpaid", "voided");
        name("CaptureMethod", "automatic", "manual");
        name("PaymentSessionType", "one_time", "first_in_series", "next_in_series");
        name("MandateStatus", "active", "cancelled", "completed");
        name("MandateType", "scheduled", "on_demand", "installment");
        name("PaymentStatus", "draft", "pending", "succeeded", "failed", "cancelled", "expired");
        name("PaymentPageStatus", "active", "inactive", "expired");
        name("RefundReason", "duplicate", "fraudulent", "requested_by_customer", "other");
        name("RefundStatus", "pending", "succeeded", "failed");
        name("SubscriptionStatus", "active", "past_due", "unpaid", "cancelled", "completed");
        name("WebhookEndpointStatus", "enabled", "disabled");
        name("SubscriptionInterval", "daily", "weekly", "monthly");
        name("SubscriptionFinalFailure", "unpaid", "cancelled");
    }

    private NamedEnums() {
    }

    private static void name(String name, String... values) {
        NAMES.put(new TreeSet<>(List.of(values)), name);
    }

    /** The named enum's component name for these values, if the table has one. */
    static String nameOf(List<?> values) {
        TreeSet<String> set = new TreeSet<>();
        values.forEach(v -> set.add(String.valueOf(v)));
        return NAMES.get(set);
    }

    /** Moves each repeated inline enum the table names into its component, and refers to it. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void name(OpenAPI openApi) {
        Map<String, Integer> uses = new HashMap<>();
        OpenApiSchemas.replaceAll(openApi, schema -> {
            String name = inlineEnum(schema) ? nameOf(schema.getEnum()) : null;
            if (name != null) {
                uses.merge(name, 1, Integer::sum);
            }
            return schema;
        });
        Map<String, Schema> components = openApi.getComponents().getSchemas();
        Map<String, Schema> added = new HashMap<>();
        OpenApiSchemas.replaceAll(openApi, schema -> {
            String name = inlineEnum(schema) ? nameOf(schema.getEnum()) : null;
            if (name == null || (uses.getOrDefault(name, 0) < 2 && !components.containsKey(name))) {
                return schema;
            }
            added.computeIfAbsent(name, n -> {
                Schema named = OpenApiSchemas.typed("string");
                named.setEnum(new ArrayList<>(schema.getEnum()));
                return named;
            });
            Schema reference = OpenApiSchemas.ref(name);
            // What the place said of itself stays with it (OpenAPI 3.1 allows these beside a $ref).
            reference.setDescription(schema.getDescription());
            if (schema.getDefault() != null) {
                reference.setDefault(schema.getDefault());
            }
            reference.setDeprecated(schema.getDeprecated());
            return reference;
        });
        added.forEach(components::putIfAbsent);
    }

    private static boolean inlineEnum(Schema<?> schema) {
        return schema.getEnum() != null && !schema.getEnum().isEmpty() && schema.get$ref() == null;
    }
}
