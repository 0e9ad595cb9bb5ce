package io.tender.api;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads one JSON object of a request and collects every problem with it (unknown properties, wrong JSON types,
 * broken rules) under its JSON path, so a client gets all of them in one 400. Jackson's data binding stops at the
 * first unknown property or type mismatch and words its messages with the offending value, which could be a voucher
 * PIN; hence this small reader. Messages never include values.
 *
 * <p>Every string it reads is one line (decisions §12, §13): a line break anywhere, in a top-level field or one of a
 * nested object or array ({@code customer.name}, {@code account.customer.name}, {@code custom_fields[0].label}), is
 * refused naming the field. The rule lives here, in the one reader every request body goes through, rather than in
 * each field's rules, so that no nested record can forget it. A field meant to hold several lines says so by being
 * read with {@link #text}; metadata values (free-form) are the other exception.
 */
public final class JsonInput {

    private final ObjectNode node;
    private final String path;
    private final List<FieldError> errors;

    private JsonInput(ObjectNode node, String path, List<FieldError> errors) {
        this.node = node;
        this.path = path;
        this.errors = errors;
    }

    /** The request body as an object; an absent body reads as an empty object. */
    public static JsonInput body(JsonNode body) {
        if (body == null || body.isMissingNode() || body.isNull()) {
            return new JsonInput(null, "", new ArrayList<>());
        }
        if (!body.isObject()) {
            throw ApiException.badRequest("body", "must be a JSON object");
        }
        return new JsonInput((ObjectNode) body, "", new ArrayList<>());
    }

    /**
     * The properties of a request body the API documents as the record {@code shape}: its components, in snake_case
     * as the API names them. A reader that allows these accepts exactly what the document describes.
     */
    public static Set<String> properties(Class<? extends Record> shape) {
        return Arrays.stream(shape.getRecordComponents())
                .map(c -> c.getName().replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Rejects every property not named here. */
    public JsonInput allow(Set<String> names) {
        if (node != null) {
            for (String name : node.propertyNames()) {
                if (!names.contains(name)) {
                    reject(name, "is not a known property");
                }
            }
        }
        return this;
    }

    public boolean has(String name) {
        return node != null && node.has(name);
    }

    /** A string of one line ({@link #ONE_LINE}). */
    public String string(String name, boolean required) {
        String value = text(name, required);
        if (value != null && LINE_BREAK.matcher(value).find()) {
            reject(name, ONE_LINE);
            return null;
        }
        return value;
    }

    /** A string that may hold line breaks; only for a field meant to hold several lines. */
    private String text(String name, boolean required) {
        JsonNode value = value(name, required, JsonNode::isString, "must be a string");
        return value == null ? null : value.stringValue();
    }

    /** An RFC 3339 timestamp; null when absent or not one ({@link Timestamps#RULE}, recorded). */
    public Instant timestamp(String name, boolean required) {
        String value = string(name, required);
        if (value == null) {
            return null;
        }
        try {
            return Timestamps.parse(value);
        } catch (DateTimeParseException e) {
            reject(name, Timestamps.RULE);
            return null;
        }
    }

    /**
     * A string of one line ({@link #ONE_LINE}) with a length range and an optional pattern (described in words for
     * the message).
     */
    public String string(String name, boolean required, int min, int max, Pattern pattern, String patternWords) {
        String value = string(name, required);
        if (value == null || !inRange(value, name, min, max)) {
            return null;
        }
        if (pattern != null && !pattern.matcher(value).matches()) {
            reject(name, patternWords);
            return null;
        }
        return value;
    }

    /** What a one-line field says when it holds a line break. */
    public static final String ONE_LINE = "must be one line: no line breaks";
    private static final Pattern LINE_BREAK = Pattern.compile("[\\r\\n\\u0085\\u2028\\u2029]");

    /**
     * A string meant as one line (a name, a description shown in a list or an SMS) with a length range: as every
     * string read here, a line break anywhere is refused (decisions §12), so it can neither forge a log line nor a
     * header.
     */
    public String line(String name, boolean required, int min, int max) {
        return string(name, required, min, max, null, null);
    }

    /** A string with a length range that may hold line breaks: only for a field meant as several lines. */
    public String text(String name, boolean required, int min, int max) {
        String value = text(name, required);
        return value == null || !inRange(value, name, min, max) ? null : value;
    }

    private boolean inRange(String value, String name, int min, int max) {
        int length = characters(value);
        if (length < min || length > max) {
            reject(name, min == max ? "must be exactly " + min + " characters"
                    : "must be " + min + " to " + max + " characters");
            return false;
        }
        return true;
    }

    public Long integer(String name, boolean required, long min, long max) {
        JsonNode value = value(name, required, JsonNode::isIntegralNumber, "must be an integer");
        if (value == null) {
            return null;
        }
        if (!value.canConvertToLong()) {
            // An integer, only too large for any limit: say which limit.
            reject(name, value.bigIntegerValue().signum() < 0 ? "must be at least " + min : "must be at most " + max);
            return null;
        }
        long number = value.longValue();
        if (number < min) {
            reject(name, "must be at least " + min);
            return null;
        }
        if (number > max) {
            reject(name, "must be at most " + max);
            return null;
        }
        return number;
    }

    public Boolean bool(String name, boolean required) {
        JsonNode value = value(name, required, JsonNode::isBoolean, "must be true or false");
        return value == null ? null : value.booleanValue();
    }

    public JsonInput object(String name, boolean required) {
        JsonNode value = value(name, required, JsonNode::isObject, "must be an object");
        return value == null ? null : new JsonInput((ObjectNode) value, pathOf(name), errors);
    }

    /** A free-form object, passed on as it is. */
    public ObjectNode rawObject(String name) {
        return (ObjectNode) value(name, false, JsonNode::isObject, "must be an object");
    }

    public List<String> strings(String name, int maxItems, int maxLength) {
        JsonNode value = array(name, maxItems, "must be an array of strings");
        if (value == null) {
            return null;
        }
        List<String> result = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            if (!item.isString()) {
                reject(name + "[" + i + "]", "must be a string");
            } else if (item.stringValue().isEmpty() || characters(item.stringValue()) > maxLength) {
                reject(name + "[" + i + "]", "must be 1 to " + maxLength + " characters");
            } else if (LINE_BREAK.matcher(item.stringValue()).find()) {
                reject(name + "[" + i + "]", ONE_LINE);
            } else {
                result.add(item.stringValue());
            }
        }
        return result;
    }

    /** An array of integers, each within {@code min..max}; null when absent. */
    public List<Long> integers(String name, int maxItems, long min, long max) {
        List<JsonInput> items = items(name, maxItems, "must be an array of integers");
        if (items == null) {
            return null;
        }
        List<Long> result = new ArrayList<>();
        for (JsonInput item : items) {
            Long value = item.integer("", true, min, max);
            if (value != null) {
                result.add(value);
            }
        }
        return result;
    }

    /** An array of objects, each read like the body ({@code name[0].field} in errors); null when absent. */
    public List<JsonInput> objects(String name, int maxItems) {
        List<JsonInput> items = items(name, maxItems, "must be an array of objects");
        if (items == null) {
            return null;
        }
        List<JsonInput> result = new ArrayList<>();
        for (JsonInput item : items) {
            JsonInput object = item.object("", true);
            if (object != null) {
                result.add(object);
            }
        }
        return result;
    }

    /** Each item of an array as a one-value reader whose empty name is the item ({@code name[i]}). */
    private List<JsonInput> items(String name, int maxItems, String shape) {
        JsonNode value = array(name, maxItems, shape);
        if (value == null) {
            return null;
        }
        List<JsonInput> result = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            ObjectNode holder = JsonNodeFactory.instance.objectNode();
            holder.set("", value.get(i));
            result.add(new JsonInput(holder, pathOf(name) + "[" + i + "]", errors));
        }
        return result;
    }

    /** A metadata object: at most 20 string values, key names 1 to 40 characters, values at most 500 (spec Limits). */
    public Map<String, String> metadata(String name) {
        return metadata(name, false);
    }

    /** As {@link #metadata(String)}; with {@code nullRemoves} a null value is kept as null (PATCH: remove the key). */
    public Map<String, String> metadata(String name, boolean nullRemoves) {
        JsonNode value = value(name, false, JsonNode::isObject, "must be an object of string values");
        if (value == null) {
            return null;
        }
        if (value.size() > 20) {
            reject(name, "must have at most 20 keys");
            return null;
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (var entry : value.properties()) {
            String key = entry.getKey();
            JsonNode item = entry.getValue();
            if (key.isEmpty() || characters(key) > 40) {
                reject(name, "key names must be 1 to 40 characters");
            } else if (nullRemoves && item.isNull()) {
                result.put(key, null);
            } else if (!item.isString()) {
                reject(name + "." + key, "must be a string");
            } else if (characters(item.stringValue()) > 500) {
                reject(name + "." + key, "must be at most 500 characters");
            } else {
                result.put(key, item.stringValue());
            }
        }
        return result;
    }

    /** Records a rule failure for a field of this object, if {@code ok} is false. */
    public boolean check(boolean ok, String name, String message) {
        if (!ok) {
            reject(name, message);
        }
        return ok;
    }

    public <T> T check(T value, Predicate<T> rule, String name, String message) {
        if (value != null && !rule.test(value)) {
            reject(name, message);
            return null;
        }
        return value;
    }

    public void reject(String name, String message) {
        errors.add(new FieldError(pathOf(name), message));
    }

    public boolean valid() {
        return errors.isEmpty();
    }

    /** Throws one 400 with every collected error. */
    public void throwIfInvalid() {
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
    }

    private JsonNode value(String name, boolean required) {
        JsonNode value = node == null ? null : node.get(name);
        if (value == null || value.isNull()) {
            if (required) {
                reject(name, "is required");
            }
            return null;
        }
        return value;
    }

    /** The value if it is of the kind {@code is} accepts; null when absent (required: rejected) or of another kind. */
    private JsonNode value(String name, boolean required, Predicate<JsonNode> is, String otherwise) {
        JsonNode value = value(name, required);
        if (value != null && !is.test(value)) {
            reject(name, otherwise);
            return null;
        }
        return value;
    }

    /** An optional array of at most {@code maxItems} items; {@code shape} words what else it must be. */
    private JsonNode array(String name, int maxItems, String shape) {
        JsonNode value = value(name, false, JsonNode::isArray, shape);
        if (value != null && value.size() > maxItems) {
            reject(name, "must have at most " + maxItems + " items");
            return null;
        }
        return value;
    }

    private String pathOf(String name) {
        return path.isEmpty() ? name : name.isEmpty() ? path : path + "." + name;
    }

    /**
     * A string's length as JSON Schema's {@code minLength}/{@code maxLength} count it, and as a person does: in
     * characters (code points), so that an emoji is one, not the two UTF-16 units Java's {@code length()} counts.
     */
    public static int characters(String value) {
        return value.codePointCount(0, value.length());
    }
}
