package io.tender.billing;

import io.tender.api.JsonInput;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Reading billing request bodies with {@link JsonInput}, plus what it cannot tell on its own: whether a field holds an
 * object (a nested create) or a string (a reference), and whether a PATCH sent an explicit null.
 */
final class BillingInput {

    private static final Pattern E164 = Pattern.compile("^\\+[1-9][0-9]{1,14}$");
    private static final Pattern EMAIL = Pattern.compile(CustomerContacts.EMAIL_PATTERN);
    private static final Pattern DATE = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");

    private BillingInput() {
    }

    static boolean isObject(JsonNode node, String field) {
        return node != null && node.isObject() && node.get(field) != null && node.get(field).isObject();
    }

    static boolean isNull(JsonNode node, String field) {
        return node != null && node.isObject() && node.get(field) != null && node.get(field).isNull();
    }

    /** PATCH: these fields may change but not be removed. */
    static void refuseNulls(JsonInput in, JsonNode node, String... fields) {
        for (String field : fields) {
            in.check(!isNull(node, field), field, "cannot be removed");
        }
    }

    /** A reference to an existing resource: its id or its external_reference. */
    static String reference(JsonInput in, JsonNode node, String field, boolean required, String words) {
        JsonNode value = node == null || !node.isObject() ? null : node.get(field);
        if (value != null && !value.isNull() && !value.isString()) {
            in.reject(field, "must be " + words);
            return null;
        }
        return in.line(field, required, 1, 255);
    }

    static String email(JsonInput in, boolean required) {
        return in.string("email", required, 3, 254, EMAIL, "must be an email address such as ada@example.com");
    }

    static String phone(JsonInput in) {
        return in.string("phone", false, 3, 16, E164, "must be an E.164 phone number such as +27821234567");
    }

    /** A calendar date, {@code YYYY-MM-DD}. */
    static LocalDate date(JsonInput in, String field, boolean required) {
        String value = in.string(field, required, 10, 10, DATE, "must be a date such as 2026-05-20 (YYYY-MM-DD)");
        if (value == null) {
            return null;
        }
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            in.reject(field, "is not a valid calendar date");
            return null;
        }
    }
}
