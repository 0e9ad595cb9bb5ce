package io.tender;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a tour's {@code # -> NNN …} comment says its command printed, held against what it did print. The comment's
 * text after the status is the result as the reader sees it, optionally followed by words about it after a {@code :},
 * {@code ;} or {@code (}:
 * <ul>
 *     <li>JSON ({@code {"status": "confirmed"}}, {@code "paid"}, {@code 7500}) is compared as JSON with what was
 *     printed: same members, elements and values, whatever the layout. {@code …} stands for what varies: inside a
 *     string any characters ({@code "rdm_…"}), as an object's member any other members, as an array's element any
 *     number of elements. Without a {@code …} member an object has exactly the members shown.</li>
 *     <li>Text that is not JSON ({@code jq -r}'s {@code rdm_…}, a header line) is compared as text, {@code …} again
 *     standing for any characters.</li>
 *     <li>A command whose answer goes into a variable prints nothing: its comment's JSON is compared with the answer's
 *     body, and words alone ({@code # -> 200 the session: …}) describe it.</li>
 * </ul>
 * Whatever a command prints, its comment shows first: words alone never stand for printed output.
 */
final class DocumentedResult {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final String ANY = "…";
    private static final Pattern WORDS_AFTER = Pattern.compile("^\\s*(?:[:;(].*)?$", Pattern.DOTALL);

    private DocumentedResult() {
    }

    /**
     * Why {@code documented} (the comment after its status) disagrees with what the command {@code printed}, or with
     * the body it was {@code answered} when it printed nothing; empty when they agree.
     */
    static Optional<String> disagreement(String documented, String printed, String answered) {
        String text = documented.strip();
        String shown = printed.strip();
        if (!shown.isEmpty()) {
            return against(text, shown, "printed");
        }
        if (startsWithJson(text)) {
            return answered.isBlank() ? Optional.of("its comment shows " + text + " but the command printed nothing "
                    + "and the service answered no body") : against(text, answered.strip(), "answered");
        }
        return Optional.empty();
    }

    private static Optional<String> against(String documented, String shown, String verb) {
        JsonNode actual = json(shown);
        if (actual == null) {
            return text(documented, shown) ? Optional.empty()
                    : Optional.of("the command " + verb + " " + shown + " but its comment shows " + quoted(documented));
        }
        Parsed parsed;
        try {
            parsed = new Parser(documented).value();
        } catch (IllegalArgumentException notJson) {
            return Optional.of("the command " + verb + " " + shown + " but its comment shows no such value: "
                    + quoted(documented) + " (" + notJson.getMessage() + ")");
        }
        if (!WORDS_AFTER.matcher(documented.substring(parsed.end())).matches()) {
            return Optional.of("its comment's value " + documented.substring(0, parsed.end()) + " is followed by "
                    + quoted(documented.substring(parsed.end())) + ", not by words after a ':', ';' or '('");
        }
        List<String> differences = new ArrayList<>();
        compare(parsed.shape(), actual, "$", differences);
        return differences.isEmpty() ? Optional.empty() : Optional.of("the command " + verb + " " + shown
                + " but its comment shows " + documented.substring(0, parsed.end()) + ": "
                + String.join("; ", differences));
    }

    private static String quoted(String text) {
        return text.isEmpty() ? "nothing" : "\"" + text + "\"";
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JacksonException notJson) {
            return null;
        }
    }

    private static boolean startsWithJson(String text) {
        return text.startsWith("{") || text.startsWith("[") || text.startsWith("\"");
    }

    /** Text output: some start of the comment, up to words after it, matches it whole ({@code …}: any characters). */
    private static boolean text(String documented, String shown) {
        String actual = shown.replaceAll("\\s+", " ");
        for (int end = documented.length(); end > 0; end--) {
            if (WORDS_AFTER.matcher(documented.substring(end)).matches()
                    && wildcard(documented.substring(0, end).strip().replaceAll("\\s+", " ")).matcher(actual).matches()) {
                return true;
            }
        }
        return false;
    }

    private static Pattern wildcard(String documented) {
        var regex = new StringBuilder();
        for (String part : documented.split(ANY, -1)) {
            if (!regex.isEmpty() || documented.startsWith(ANY)) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    // ---- the comparison ---------------------------------------------------------------------------------------

    private static void compare(Shape expected, JsonNode actual, String path, List<String> differences) {
        switch (expected) {
            case Shape.Text t -> {
                if (!actual.isString() || !wildcard(t.value()).matcher(actual.stringValue()).matches()) {
                    differences.add(path + " is " + actual + ", not \"" + t.value() + "\"");
                }
            }
            case Shape.Numeral n -> {
                if (!actual.isNumber() || actual.decimalValue().compareTo(n.value()) != 0) {
                    differences.add(path + " is " + actual + ", not " + n.value());
                }
            }
            case Shape.Literal l -> {
                if (!actual.toString().equals(l.value())) {
                    differences.add(path + " is " + actual + ", not " + l.value());
                }
            }
            case Shape.Members o -> {
                if (!actual.isObject()) {
                    differences.add(path + " is " + actual + ", not an object");
                    return;
                }
                o.members().forEach((name, shape) -> {
                    if (actual.has(name)) {
                        compare(shape, actual.get(name), path + "." + name, differences);
                    } else {
                        differences.add(path + " has no \"" + name + "\"");
                    }
                });
                if (!o.open()) {
                    actual.propertyNames().stream().filter(name -> !o.members().containsKey(name))
                            .forEach(name -> differences.add(path + " also has \"" + name + "\" (write …, to leave"
                                    + " members out)"));
                }
            }
            case Shape.Elements a -> {
                if (!actual.isArray()) {
                    differences.add(path + " is " + actual + ", not an array");
                } else if (!elements(a.elements(), 0, actual, 0, path)) {
                    differences.add(path + " is " + actual + ", not " + a);
                }
            }
            case Shape.Rest r -> throw new IllegalStateException("… outside an object or array");
        }
    }

    /** Whether the array's elements from {@code at} match the shapes from {@code from}, {@code …} taking any number. */
    private static boolean elements(List<Shape> shapes, int from, JsonNode array, int at, String path) {
        if (from == shapes.size()) {
            return at == array.size();
        }
        if (shapes.get(from) instanceof Shape.Rest) {
            for (int skip = at; skip <= array.size(); skip++) {
                if (elements(shapes, from + 1, array, skip, path)) {
                    return true;
                }
            }
            return false;
        }
        if (at == array.size()) {
            return false;
        }
        List<String> inner = new ArrayList<>();
        compare(shapes.get(from), array.get(at), path + "[" + at + "]", inner);
        return inner.isEmpty() && elements(shapes, from + 1, array, at + 1, path);
    }

    // ---- the comment's JSON, with … -----------------------------------------------------------------------------

    /** A documented value: JSON in which {@code …} stands for what varies. */
    sealed interface Shape {
        record Text(String value) implements Shape {
            @Override
            public String toString() {
                return "\"" + value + "\"";
            }
        }

        record Numeral(BigDecimal value) implements Shape {
            @Override
            public String toString() {
                return value.toPlainString();
            }
        }

        record Literal(String value) implements Shape {
            @Override
            public String toString() {
                return value;
            }
        }

        record Members(Map<String, Shape> members, boolean open) implements Shape {
            @Override
            public String toString() {
                List<String> shown = new ArrayList<>();
                members.forEach((name, shape) -> shown.add("\"" + name + "\": " + shape));
                if (open) {
                    shown.add(ANY);
                }
                return "{" + String.join(", ", shown) + "}";
            }
        }

        record Elements(List<Shape> elements) implements Shape {
            @Override
            public String toString() {
                return elements.toString();
            }
        }

        /** {@code …} as a member or element: any others. */
        record Rest() implements Shape {
            @Override
            public String toString() {
                return ANY;
            }
        }
    }

    private record Parsed(Shape shape, int end) {
    }

    /** Reads one documented value from the start of a comment; where it ends, words may follow. */
    private static final class Parser {
        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
        }

        Parsed value() {
            Shape shape = next(false);
            if (shape instanceof Shape.Rest) {
                throw new IllegalArgumentException("… alone is no value");
            }
            return new Parsed(shape, at);
        }

        private Shape next(boolean inside) {
            skipSpace();
            if (at >= text.length()) {
                throw new IllegalArgumentException("it ends before its value does");
            }
            char c = text.charAt(at);
            if (text.startsWith(ANY, at) && inside) {
                at += ANY.length();
                return new Shape.Rest();
            }
            if (c == '{') {
                return object();
            }
            if (c == '[') {
                return array();
            }
            if (c == '"') {
                return new Shape.Text(string());
            }
            for (String literal : List.of("true", "false", "null")) {
                if (text.startsWith(literal, at)) {
                    at += literal.length();
                    return new Shape.Literal(literal);
                }
            }
            var number = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?").matcher(text).region(at,
                    text.length());
            if (number.lookingAt()) {
                at = number.end();
                return new Shape.Numeral(new BigDecimal(number.group()));
            }
            throw new IllegalArgumentException("no JSON value at \"" + text.substring(at) + "\"");
        }

        private Shape object() {
            at++;
            Map<String, Shape> members = new LinkedHashMap<>();
            boolean open = false;
            skipSpace();
            if (peek('}')) {
                at++;
                return new Shape.Members(members, false);
            }
            while (true) {
                skipSpace();
                if (text.startsWith(ANY, at)) {
                    at += ANY.length();
                    open = true;
                } else {
                    if (!peek('"')) {
                        throw new IllegalArgumentException("a member's name expected at \"" + text.substring(at) + "\"");
                    }
                    String name = string();
                    skipSpace();
                    expect(':');
                    members.put(name, next(false));
                }
                skipSpace();
                if (peek(',')) {
                    at++;
                } else {
                    expect('}');
                    return new Shape.Members(members, open);
                }
            }
        }

        private Shape array() {
            at++;
            List<Shape> elements = new ArrayList<>();
            skipSpace();
            if (peek(']')) {
                at++;
                return new Shape.Elements(elements);
            }
            while (true) {
                elements.add(next(true));
                skipSpace();
                if (peek(',')) {
                    at++;
                } else {
                    expect(']');
                    return new Shape.Elements(elements);
                }
            }
        }

        private String string() {
            at++;
            var value = new StringBuilder();
            while (at < text.length() && text.charAt(at) != '"') {
                char c = text.charAt(at++);
                if (c == '\\' && at < text.length()) {
                    char escaped = text.charAt(at++);
                    switch (escaped) {
                        case 'n' -> value.append('\n');
                        case 't' -> value.append('\t');
                        case 'r' -> value.append('\r');
                        case 'b' -> value.append('\b');
                        case 'f' -> value.append('\f');
                        case 'u' -> {
                            value.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                            at += 4;
                        }
                        default -> value.append(escaped);
                    }
                } else {
                    value.append(c);
                }
            }
            expect('"');
            return value.toString();
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private boolean peek(char c) {
            return at < text.length() && text.charAt(at) == c;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw new IllegalArgumentException("'" + c + "' expected at \""
                        + (at < text.length() ? text.substring(at) : "") + "\"");
            }
            at++;
        }
    }
}
