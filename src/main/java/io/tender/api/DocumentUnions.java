package io.tender.api;

import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.tender.api.OpenApiSchemas.constant;
import static io.tender.api.OpenApiSchemas.object;
import static io.tender.api.OpenApiSchemas.ref;
import static io.tender.api.OpenApiSchemas.shallowCopy;
import static io.tender.api.OpenApiSchemas.typed;

/**
 * The document's discriminated unions (decisions §14): a {@code oneOf} of named members, each with a {@code const}
 * discriminator, and a {@code discriminator} that maps each value to its member. Generators make them tagged unions
 * (TypeScript narrows on {@code type}) instead of wrapper classes around an untyped value.
 * <ul>
 *   <li>a redemption's create request and a balance lookup, on {@code type}: each type's {@code source} shape;</li>
 *   <li>a redemption, on {@code type}: each type's change voucher (ott gives none: its change goes by SMS);</li>
 *   <li>{@code payment_method_details}, on {@code type}: the details object under the type's own key.</li>
 * </ul>
 */
final class DocumentUnions {

    /** Redemption type to the name its members start with and its source's component. */
    private static final Map<String, String[]> REDEMPTION_TYPES = new LinkedHashMap<>();

    static {
        REDEMPTION_TYPES.put("vouchers.one_voucher", new String[] {"OneVoucher", "OneVoucherSource", "ChangeVoucherWithAmount"});
        REDEMPTION_TYPES.put("vouchers.ott", new String[] {"Ott", "OttSource", null});
        REDEMPTION_TYPES.put("vouchers.provider_c", new String[] {"ProviderC", "ProviderCSource", "ChangeVoucherWithReference"});
    }

    private DocumentUnions() {
    }

    @SuppressWarnings("rawtypes")
    static void shape(Map<String, Schema> components) {
        split(components, "CreateRedemptionRequest", "RedemptionRequest", (member, type) ->
                member.getProperties().put("source", ref(REDEMPTION_TYPES.get(type)[1])));
        split(components, "StoredValueLookupRequest", "LookupRequest", (member, type) ->
                member.getProperties().put("source", ref(REDEMPTION_TYPES.get(type)[1])));
        split(components, "Redemption", "Redemption", (member, type) -> {
            String change = REDEMPTION_TYPES.get(type)[2];
            Schema<?> described = member.getProperties().remove("change_voucher");
            if (change != null && described != null) {
                member.getProperties().put("change_voucher", ref(change).description(described.getDescription()));
            }
        });
        components.remove("ChangeVoucher");
        paymentMethodDetails(components);
    }

    private interface Member {
        void shape(Schema<?> member, String type);
    }

    /** The component becomes a union of one member per redemption type, each a copy with its own shape. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void split(Map<String, Schema> components, String name, String suffix, Member shape) {
        Schema<?> base = components.get(name);
        if (base == null || base.getProperties() == null) {
            return;
        }
        List<Schema> members = new ArrayList<>();
        Map<String, String> mapping = new LinkedHashMap<>();
        REDEMPTION_TYPES.forEach((type, names) -> {
            Schema<?> member = shallowCopy(base).description(base.getDescription() == null ? "`" + type + "`."
                    : base.getDescription() + " `" + type + "`.");
            member.getProperties().put("type", constant(type));
            List<String> required = member.getRequired() == null ? new ArrayList<>() : new ArrayList<>(member.getRequired());
            if (!required.contains("type")) {
                required.add("type");
            }
            member.setRequired(required);
            shape.shape(member, type);
            String memberName = names[0] + suffix;
            components.put(memberName, member);
            members.add(ref(memberName));
            mapping.put(type, OpenApiSchemas.COMPONENTS + memberName);
        });
        components.put(name, union(base.getDescription(), members, mapping));
    }

    @SuppressWarnings("rawtypes")
    private static Schema<?> union(String description, List<Schema> members, Map<String, String> mapping) {
        Schema<?> union = new io.swagger.v3.oas.models.media.JsonSchema().description(description);
        union.setOneOf(members);
        union.setDiscriminator(new Discriminator().propertyName("type").mapping(mapping));
        return union;
    }

    /** {@code {"type": "card", "card": {...}}} and its siblings, as a union replacing the free-form maps. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void paymentMethodDetails(Map<String, Schema> components) {
        Map<String, Schema> card = new LinkedHashMap<>();
        card.put("scheme", typed("string").description("`VISA`, `MASTERCARD`, `AMEX`, ..."));
        card.put("bin", typed("string").description("The first 6 digits."));
        card.put("last4", typed("string"));
        card.put("exp_month", typed("integer"));
        card.put("exp_year", typed("integer"));
        components.put("CardDetails", object("A card as Tender keeps it: never its number or security code.",
                card, List.of("scheme", "bin", "last4", "exp_month", "exp_year")));
        components.put("BankDetails", object(null, Map.of("bank", typed("string")), List.of("bank")));
        components.put("PhoneDetails", object(null, Map.of("phone_number",
                typed("string").description("Masked to its last 4 digits.")), List.of("phone_number")));

        List<Schema> members = new ArrayList<>();
        Map<String, String> mapping = new LinkedHashMap<>();
        for (String[] method : List.of(new String[] {"card", "Card", "CardDetails"},
                new String[] {"pay_by_bank", "PayByBank", "BankDetails"},
                new String[] {"capitec_pay", "CapitecPay", "PhoneDetails"},
                new String[] {"mobile_money", "MobileMoney", "PhoneDetails"})) {
            Map<String, Schema> properties = new LinkedHashMap<>();
            properties.put("type", constant(method[0]));
            properties.put(method[0], ref(method[2]));
            String name = method[1] + "PaymentMethodDetails";
            components.put(name, object(null, properties, List.of("type", method[0])));
            members.add(ref(name));
            mapping.put(method[0], OpenApiSchemas.COMPONENTS + name);
        }
        components.put("PaymentMethodDetails", union("How the payment was made: `type`, and the details under the "
                + "key of that type.", members, mapping));

        components.forEach((name, schema) -> {
            Map<String, Schema> properties = schema.getProperties();
            if (properties == null) {
                return;
            }
            if (properties.containsKey("payment_method_details") && properties.get("payment_method_details").get$ref() == null) {
                properties.put("payment_method_details", ref("PaymentMethodDetails"));
            }
            if ("PaymentMethod".equals(name) && properties.containsKey("card")) {
                properties.put("card", ref("CardDetails"));
            }
        });
    }
}
