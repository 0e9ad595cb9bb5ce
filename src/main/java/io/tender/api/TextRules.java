package io.tender.api;

import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What every piece of client text must be, whatever field it fills: Unicode that PostgreSQL can store as it was
 * sent. PostgreSQL refuses the NUL character in {@code text} and {@code jsonb} (a 500 if it gets there), and the
 * driver writes an unpaired UTF-16 surrogate (a JSON {@code "\ud800"}) as {@code ?}, silently changing the data.
 * So both are refused at the boundary, once for every body ({@link BodyTextCheck}) and query
 * ({@link QueryTextCheck}), before any controller reads them. Messages never quote the text.
 */
final class TextRules {

    static final String NUL = "must not contain the NUL character (U+0000)";
    static final String LONE_SURROGATE = "must be valid Unicode text (it holds an unpaired UTF-16 surrogate)";
    static final String NOT_UTF8 = "is not valid UTF-8 text";

    private TextRules() {
    }

    /** Why {@code text} cannot be stored as it is, or null if it can. */
    static String flaw(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return NUL;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return LONE_SURROGATE;
                }
            } else if (Character.isLowSurrogate(c)) {
                return LONE_SURROGATE;
            }
        }
        return null;
    }

    /**
     * Every string in a JSON document, property names included, at any depth, checked with {@link #flaw}. Each
     * error names the field as {@link JsonInput} does ({@code metadata.note}, {@code related_ids[2]}); a bad
     * property name is reported on the object holding it ({@code body} at the top).
     */
    static List<FieldError> check(JsonNode document) {
        List<FieldError> errors = new ArrayList<>();
        walk(document, "", errors);
        return errors;
    }

    private static void walk(JsonNode node, String path, List<FieldError> errors) {
        if (node.isString()) {
            String flaw = flaw(node.stringValue());
            if (flaw != null) {
                errors.add(new FieldError(orBody(path), flaw));
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), orBody(path) + "[" + i + "]", errors);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> property : node.properties()) {
                String flaw = flaw(property.getKey());
                if (flaw != null) {
                    errors.add(new FieldError(orBody(path), "has a property name that " + flaw));
                    continue;
                }
                walk(property.getValue(), path.isEmpty() ? property.getKey() : path + "." + property.getKey(), errors);
            }
        }
    }

    /**
     * The field a JSON parser was reading when it stopped, named like {@link #check} names fields: from the
     * parser's context, which knows the property name or array index even when the text itself was unreadable.
     */
    static String fieldAt(TokenStreamContext context) {
        List<TokenStreamContext> chain = new ArrayList<>();
        for (TokenStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            chain.addFirst(c);
        }
        StringBuilder path = new StringBuilder();
        for (TokenStreamContext c : chain) {
            if (c.inArray()) {
                path.append(path.isEmpty() ? "body" : "").append('[').append(Math.max(c.getCurrentIndex(), 0)).append(']');
            } else if (c.currentName() != null) {
                String name = c.currentName();
                if (flaw(name) != null) {
                    break;
                }
                path.append(path.isEmpty() ? "" : ".").append(name);
            } else {
                break;
            }
        }
        return orBody(path.toString());
    }

    private static String orBody(String path) {
        return path.isEmpty() ? "body" : path;
    }
}
