package io.tender.paymentpage;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import io.tender.auth.Mode;
import io.tender.payment.CollectSessions;
import io.tender.payment.PaymentMethodType;
import io.tender.paymentpage.PaymentPage.AmountOptions;
import io.tender.paymentpage.PaymentPage.CustomField;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated body of {@code POST /collect/payment_pages} or its {@code PATCH} (decisions §7): every field under the
 * same rules, {@code given} naming those the body holds (a PATCH leaves the others as they are; a null it holds
 * removes an optional value). Every broken rule is one 400 naming its field.
 */
record PageInput(Set<String> given, String title, String description, String currency, Long amount,
                 AmountOptions amountOptions, String returnUrl, Boolean requiresCustomerDetails,
                 Boolean requiresDeliveryDetails, List<CustomField> customFields, String account,
                 List<String> visiblePaymentMethods, String externalReference, Map<String, String> metadata,
                 Instant expiresAt) {

    static final long MAX_AMOUNT = 99_999_999L;
    static final int MAX_PRESETS = 6;
    static final int MAX_CUSTOM_FIELDS = 10;
    static final int MAX_OPTIONS = 20;
    /** The longest answer a payer may type into a text field, and so the longest default value. */
    static final int MAX_TEXT_VALUE = 500;
    static final Duration MAX_LIFETIME = Duration.ofDays(5 * 366);
    static final Pattern KEY = Pattern.compile("^[a-z][a-z0-9_]{0,39}$");
    private static final Pattern EXTERNAL_REFERENCE = Pattern.compile("^[a-zA-Z0-9_-]+$");
    private static final Set<String> FIELDS = Set.of("title", "description", "currency", "amount", "amount_options",
            "return_url", "requires_customer_details", "requires_delivery_details", "custom_fields", "account",
            "visible_payment_methods", "external_reference", "metadata", "expires_at");
    /** Named so that their refusal can say why, instead of "not a known property". */
    private static final Set<String> REFUSED = Set.of("products", "status");

    boolean given(String field) {
        return given.contains(field);
    }

    /** The new value of a field the body gave, else the current one. */
    <T> T or(String field, T value, T current) {
        return given(field) ? value : current;
    }

    static PageInput create(JsonNode body, Mode mode, Instant now) {
        return read(body, mode, now, false);
    }

    static PageInput patch(JsonNode body, Mode mode, Instant now) {
        return read(body, mode, now, true);
    }

    private static PageInput read(JsonNode body, Mode mode, Instant now, boolean patch) {
        Set<String> allowed = new HashSet<>(FIELDS);
        allowed.addAll(REFUSED);
        JsonInput in = JsonInput.body(body).allow(allowed);
        in.check(!in.has("products"), "products", "is not offered: a page takes one fixed amount or the payer's "
                + "choice of amount (amount_options); there is no product catalog");
        in.check(!in.has("status"), "status", patch
                ? "cannot be set here: PATCH /collect/payment_pages/{id}/inactive stops a page taking payments"
                : "is not set on create: a page starts active");
        Set<String> given = new LinkedHashSet<>();
        FIELDS.forEach(f -> {
            if (in.has(f)) {
                given.add(f);
            }
        });
        if (patch) {
            in.check(!in.has("currency"), "currency", "cannot be changed: create a new page for another currency");
            in.check(!in.has("account"), "account", "cannot be changed: create a new page for another account");
            for (String field : List.of("title", "requires_customer_details", "requires_delivery_details")) {
                in.check(!given.contains(field) || present(body, field), field, "cannot be null");
            }
            in.check(!given.contains("amount") || present(body, "amount"), "amount",
                    "cannot be null: give amount_options to let the payer choose");
            in.check(!given.contains("amount_options") || present(body, "amount_options"), "amount_options",
                    "cannot be null: give amount for a fixed amount");
        }
        in.check(patch ? !(given.contains("amount") && given.contains("amount_options"))
                        : present(body, "amount") != present(body, "amount_options"), "amount",
                "give exactly one of amount (a fixed amount) or amount_options (the payer chooses)");
        String title = in.line("title", !patch, 1, 200);
        // A paragraph on the page, the one field of a page that may hold several lines.
        String description = in.text("description", false, 1, 1000);
        String currency = patch ? null : Currencies.read(in, "currency", true);
        Long amount = in.integer("amount", false, 1, MAX_AMOUNT);
        AmountOptions options = amountOptions(in);
        String returnUrl = in.line("return_url", false, 1, 500);
        if (returnUrl != null) {
            in.check(CollectSessions.returnUrlAllowed(returnUrl, mode == Mode.TEST), "return_url",
                    mode == Mode.TEST ? "must be an https URL (or http on localhost in test mode)" : "must be an https URL");
        }
        Boolean customer = in.bool("requires_customer_details", false);
        Boolean delivery = in.bool("requires_delivery_details", false);
        List<CustomField> fields = customFields(in);
        String account = patch ? null : in.line("account", false, 1, 255);
        List<String> visible = PaymentMethodType.readList(in, "visible_payment_methods");
        String externalReference = in.string("external_reference", false, 1, 255, EXTERNAL_REFERENCE,
                "must match ^[a-zA-Z0-9_-]+$");
        Map<String, String> metadata = in.metadata("metadata", patch);
        Instant expiresAt = expiresAt(in, now);
        in.throwIfInvalid();
        return new PageInput(Set.copyOf(given), title, description, currency, amount, options, returnUrl, customer,
                delivery, fields == null && given.contains("custom_fields") ? List.of() : fields, account, visible,
                externalReference, metadata, expiresAt);
    }

    /** Whether the body holds the field with a value other than null. */
    private static boolean present(JsonNode body, String field) {
        return body != null && body.has(field) && !body.get(field).isNull();
    }

    private static AmountOptions amountOptions(JsonInput parent) {
        JsonInput in = parent.object("amount_options", false);
        if (in == null) {
            return null;
        }
        in.allow(Set.of("min", "max", "presets"));
        Long min = in.integer("min", true, 1, MAX_AMOUNT);
        Long max = in.integer("max", true, 1, MAX_AMOUNT);
        List<Long> presets = in.integers("presets", MAX_PRESETS, 1, MAX_AMOUNT);
        if (min == null || max == null) {
            return null;
        }
        if (!in.check(min <= max, "max", "must be at least min")) {
            return null;
        }
        if (presets != null) {
            in.check(presets.stream().allMatch(p -> p >= min && p <= max), "presets", "must each be from min to max");
            in.check(presets.stream().distinct().count() == presets.size(), "presets", "must be distinct");
        }
        return new AmountOptions(min, max, presets == null ? List.of() : List.copyOf(presets));
    }

    private static List<CustomField> customFields(JsonInput parent) {
        List<JsonInput> items = parent.objects("custom_fields", MAX_CUSTOM_FIELDS);
        if (items == null) {
            return null;
        }
        List<CustomField> fields = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (JsonInput in : items) {
            in.allow(Set.of("key", "label", "type", "options", "required", "default_value"));
            String key = in.string("key", true, 1, 40, KEY,
                    "must be 1 to 40 lower-case letters, digits or _, starting with a letter");
            if (key != null) {
                in.check(keys.add(key), "key", "must be unique among the page's custom fields");
            }
            String label = in.line("label", true, 1, 100);
            String type = in.string("type", true);
            in.check(type == null || type.equals("text") || type.equals("dropdown"), "type", "must be text or dropdown");
            boolean dropdown = "dropdown".equals(type);
            List<String> options = in.strings("options", MAX_OPTIONS, 100);
            if (dropdown) {
                in.check(options != null && !options.isEmpty(), "options", "must list 1 to " + MAX_OPTIONS
                        + " choices for a dropdown");
                in.check(options == null || options.stream().distinct().count() == options.size(), "options",
                        "must be distinct");
            } else {
                in.check(!in.has("options"), "options", "belong to dropdown fields only");
            }
            Boolean required = in.bool("required", false);
            String defaultValue = in.line("default_value", false, 1, MAX_TEXT_VALUE);
            in.check(defaultValue == null || !dropdown || options == null || options.contains(defaultValue),
                    "default_value", "must be one of the options");
            fields.add(new CustomField(key, label, type, dropdown && options != null ? List.copyOf(options) : null,
                    required != null && required, defaultValue));
        }
        return List.copyOf(fields);
    }

    private static Instant expiresAt(JsonInput in, Instant now) {
        return in.check(in.timestamp("expires_at", false), e -> e.isAfter(now) && !e.isAfter(now.plus(MAX_LIFETIME)),
                "expires_at", "must be in the future, at most 5 years from now");
    }
}
