package io.tender.api;

import io.tender.support.Api;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * The mutation catalogue of {@link OpenApiFuzzIT}: for one operation, every way the fuzzer breaks its valid request,
 * by family, and a seeded pick of at most {@code cap} of them that takes from every family in turn.
 */
final class FuzzMutations {

    /** One way to break a request; {@code family: description} names it in reports and in the skip property. */
    record Mutation(String family, String description, UnaryOperator<FuzzRequest> apply) {
        String label() {
            return family + ": " + description;
        }
    }

    static final String MISSING = "missing";
    static final String NULL = "null";
    static final String WRONG_TYPE = "wrong-type";
    static final String NUMBER = "number";
    static final String STRING = "string";
    /** NUL characters and lone surrogates anywhere (JSON strings and names, path, query). */
    static final String NUL_SURROGATE = "nul-surrogate";
    static final String NESTING = "nesting";
    static final String UNKNOWN_FIELD = "unknown-field";
    static final String BODY = "body";
    static final String PATH_ID = "path-id";
    static final String QUERY = "query";
    static final String HEADER = "header";

    static final List<String> FAMILIES = List.of(MISSING, NULL, WRONG_TYPE, NUMBER, STRING, NUL_SURROGATE, NESTING,
            UNKNOWN_FIELD, BODY, PATH_ID, QUERY, HEADER);

    private static final String VALUE_MARKER = "FUZZ_RAW_VALUE_9f27c1";
    private static final String NAME_MARKER = "FUZZ_RAW_NAME_9f27c1";

    private static final String A_100_KB = "a".repeat(100 * 1024);
    private static final String A_60_KB = "a".repeat(60 * 1024);

    private static final List<Value> WRONG_TYPES = List.of(
            json("a string", "\"fuzz\""), json("an integer", "1"), json("a boolean", "true"), json("an empty array", "[]"),
            json("an array", "[\"fuzz\",1]"), json("an empty object", "{}"), json("an object", "{\"fuzz\":1}"));

    private static final List<Value> NUMBERS = List.of(
            json("0", "0"), json("-1", "-1"), json("1", "1"), json("max long", "9223372036854775807"),
            json("min long", "-9223372036854775808"), json("max long + 1", "9223372036854775808"),
            json("min long - 1", "-9223372036854775809"), json("32 nines", "9".repeat(32)),
            json("1e308", "1e308"), json("-1e308", "-1e308"), json("1e309 (beyond double)", "1e309"),
            json("4.9e-324", "4.9e-324"), json("1.5", "1.5"), json("0.1", "0.1"), json("1.0", "1.0"), json("-0", "-0"),
            json("-0.0", "-0.0"), json("1e2", "1e2"), json("1E+2", "1E+2"), json("1001 digits", "9".repeat(1001)),
            json("a 2000-digit fraction", "0." + "1".repeat(2000)), json("NaN", "NaN"), json("Infinity", "Infinity"),
            json("leading zero 01", "01"), json("+1", "+1"), json(".5", ".5"), json("1e", "1e"));

    private static final List<Value> STRINGS = List.of(
            json("empty string", "\"\""), json("a space", "\" \""), json("padded", "\"  fuzz  \""),
            json("100 KiB string", "\"" + A_100_KB + "\""), json("60 KiB string", "\"" + A_60_KB + "\""),
            json("non-ASCII", "\"Zürich – Čapek – 東京 – 🎉\""), json("right-to-left override", "\"\\u202Efdp.exe\""),
            json("zero-width and BOM", "\"\\u200b\\ufeff\""), json("\\uffff", "\"\\uffff\""),
            json("1000 emoji", "\"" + "🎉".repeat(1000) + "\""), json("escaped newline and tab", "\"a\\nb\\tc\""),
            json("a backslash", "\"\\\\\""), json("%00 text", "\"%00\""), json("path traversal", "\"../../etc/passwd\""),
            json("SQL", "\"' OR '1'='1\""), json("JNDI", "\"${jndi:ldap://127.0.0.1/a}\""),
            json("HTML", "\"<script>alert(1)</script>\""), json("2030-02-30", "\"2030-02-30\""),
            json("9999-12-31", "\"9999-12-31\""), json("0000-01-01", "\"0000-01-01\""),
            json("hour 25", "\"2030-01-31T25:00:00Z\""), json("a customer id", "\"bcus_000000000000000000000000\""),
            json("a redemption id", "\"rdm_ffffffffffffffffffffffff\""), json("numeric text", "\"12\""),
            raw("invalid UTF-8 (C3 28)", bytes("\"", 0xc3, 0x28, "\"")),
            raw("overlong UTF-8 (C0 AF)", bytes("\"", 0xc0, 0xaf, "\"")), raw("byte FF", bytes("\"", 0xff, "\"")));

    private static final List<Value> NUL_SURROGATES = List.of(
            json("\\u0000", "\"\\u0000\""), json("a\\u0000b", "\"a\\u0000b\""), json("lone high surrogate", "\"\\ud800\""),
            json("lone low surrogate", "\"\\udfff\""), json("a lone low surrogate inside", "\"a\\udc00b\""),
            json("two high surrogates", "\"\\ud800\\ud800\""),
            raw("a surrogate as UTF-8 bytes (ED A0 80)", bytes("\"", 0xed, 0xa0, 0x80, "\"")),
            raw("a raw NUL byte", bytes("\"a", 0x00, "b\"")), raw("a raw 0x01 byte", bytes("\"a", 0x01, "b\"")));

    private static final List<Value> NESTINGS = List.of(
            json("arrays nested 64 deep", "[".repeat(64) + "]".repeat(64)),
            json("arrays nested 5000 deep", "[".repeat(5000) + "]".repeat(5000)),
            json("objects nested 64 deep", "{\"a\":".repeat(64) + "1" + "}".repeat(64)),
            json("objects nested 5000 deep", "{\"a\":".repeat(5000) + "1" + "}".repeat(5000)),
            json("an array of 10000 nulls", "[" + String.join(",", Collections.nCopies(10000, "null")) + "]"),
            json("an object of 2000 keys", keys(2000)));

    private static final List<String> ID_PREFIXES = List.of("rdm_", "op_", "bcus_", "bacc_", "bill_", "ob_", "pay_",
            "evt_", "we_", "wha_", "ps_", "mer_", "key_");

    private final SchemaExamples examples;
    private final String pathTemplate;
    private final Map<String, String> pathIds;
    private final JsonNode operation;
    private final JsonNode bodySchema;
    private final JsonNode validBody;
    private final Map<String, List<Mutation>> catalogue = new LinkedHashMap<>();

    /**
     * @param pathIds   the valid value of each path parameter (already percent-encoded)
     * @param validBody the operation's valid body, or null if it takes none
     */
    FuzzMutations(SchemaExamples examples, String pathTemplate, Map<String, String> pathIds,
                  JsonNode operation, JsonNode bodySchema, JsonNode validBody) {
        this.examples = examples;
        this.pathTemplate = pathTemplate;
        this.pathIds = pathIds;
        this.operation = operation;
        this.bodySchema = bodySchema;
        this.validBody = validBody;
        FAMILIES.forEach(family -> catalogue.put(family, new ArrayList<>()));
        if (validBody != null) {
            bodyMutations();
        }
        bodyShapes();
        pathMutations();
        queryMutations();
        headerMutations();
    }

    static String path(String template, Map<String, String> ids) {
        String path = template;
        for (var id : ids.entrySet()) {
            path = path.replace("{" + id.getKey() + "}", id.getValue());
        }
        return path;
    }

    /**
     * At most {@code cap} mutations not skipped, the same ones for the same seed: each family shuffled, then one from
     * each family in turn, so that every family is tried however small the cap.
     */
    List<Mutation> pick(Random random, int cap, java.util.function.Predicate<Mutation> skipped) {
        List<List<Mutation>> queues = new ArrayList<>();
        for (List<Mutation> family : catalogue.values()) {
            List<Mutation> queue = new ArrayList<>(family.stream().filter(skipped.negate()).toList());
            Collections.shuffle(queue, random);
            queues.add(queue);
        }
        List<Mutation> picked = new ArrayList<>();
        for (int round = 0; picked.size() < cap; round++) {
            boolean any = false;
            for (List<Mutation> queue : queues) {
                if (round < queue.size() && picked.size() < cap) {
                    picked.add(queue.get(round));
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        return picked;
    }

    // ----- the body, property by property -----

    private void bodyMutations() {
        List<List<Object>> targets = new ArrayList<>();
        List<List<Object>> objects = new ArrayList<>();
        collectTargets(bodySchema, validBody, new ArrayList<>(), targets, objects);
        for (List<Object> target : targets) {
            String name = pointer(target);
            if (present(target)) {
                add(MISSING, "without " + name, r -> r.withBody(without(target)));
            }
            add(NULL, name + " = null", r -> r.withBody(with(target, null, utf8("null"))));
            for (Value value : WRONG_TYPES) {
                add(WRONG_TYPE, name + " = " + value.name(), r -> r.withBody(with(target, null, value.json())));
            }
            for (Value value : NUMBERS) {
                add(NUMBER, name + " = " + value.name(), r -> r.withBody(with(target, null, value.json())));
            }
            for (Value value : STRINGS) {
                add(STRING, name + " = " + value.name(), r -> r.withBody(with(target, null, value.json())));
            }
            for (Value value : NUL_SURROGATES) {
                add(NUL_SURROGATE, name + " = " + value.name(), r -> r.withBody(with(target, null, value.json())));
            }
            for (Value value : NESTINGS) {
                add(NESTING, name + " = " + value.name(), r -> r.withBody(with(target, null, value.json())));
            }
        }
        for (List<Object> object : objects) {
            String where = object.isEmpty() ? "the body" : pointer(object);
            add(UNKNOWN_FIELD, "fuzz_unknown in " + where,
                    r -> r.withBody(withProperty(object, utf8("\"fuzz_unknown\""), utf8("1"))));
        }
        List<Object> root = List.of();
        add(UNKNOWN_FIELD, "__proto__", r -> r.withBody(withProperty(root, utf8("\"__proto__\""), utf8("{\"admin\":true}"))));
        add(UNKNOWN_FIELD, "constructor.prototype",
                r -> r.withBody(withProperty(root, utf8("\"constructor\""), utf8("{\"prototype\":{\"a\":1}}"))));
        add(UNKNOWN_FIELD, "an empty name", r -> r.withBody(withProperty(root, utf8("\"\""), utf8("1"))));
        add(UNKNOWN_FIELD, "a 10000-char name",
                r -> r.withBody(withProperty(root, utf8("\"" + "n".repeat(10_000) + "\""), utf8("1"))));
        add(UNKNOWN_FIELD, "a non-ASCII name", r -> r.withBody(withProperty(root, utf8("\"ünknown_東京\""), utf8("1"))));
        add(UNKNOWN_FIELD, "500 unknown names", r -> r.withBody(withProperty(root, utf8("\"fuzz_many\""),
                utf8("1," + keys(500).substring(1, keys(500).length() - 1)))));
        for (String name : examples.properties(bodySchema).keySet()) {
            String camel = camelCase(name);
            if (!camel.equals(name)) {
                add(UNKNOWN_FIELD, "camelCase " + camel, r -> r.withBody(withProperty(root, utf8("\"" + camel + "\""),
                        utf8("\"fuzz\""))));
            }
            add(UNKNOWN_FIELD, "upper-case " + name.toUpperCase(java.util.Locale.ROOT), r -> r.withBody(
                    withProperty(root, utf8("\"" + name.toUpperCase(java.util.Locale.ROOT) + "\""), utf8("\"fuzz\""))));
        }
        add(NUL_SURROGATE, "a property named \\u0000", r -> r.withBody(withProperty(root, utf8("\"\\u0000\""), utf8("1"))));
        add(NUL_SURROGATE, "a property named with a lone surrogate",
                r -> r.withBody(withProperty(root, utf8("\"\\ud800\""), utf8("1"))));
    }

    /**
     * Every property the schema declares at each object the valid body has (absent ones too, where they would go),
     * items of arrays present, and one made-up key in free-form maps such as {@code metadata}.
     */
    private void collectTargets(JsonNode schema, JsonNode value, List<Object> at, List<List<Object>> targets,
                                List<List<Object>> objects) {
        if (!(value instanceof ObjectNode object)) {
            if (value instanceof ArrayNode array && !array.isEmpty() && schema != null) {
                JsonNode items = examples.resolve(schema).get("items");
                List<Object> first = append(at, 0);
                targets.add(first);
                collectTargets(items, array.get(0), first, targets, objects);
            }
            return;
        }
        objects.add(at);
        Map<String, JsonNode> declared = schema == null ? Map.of() : examples.properties(schema);
        List<String> names = new ArrayList<>(declared.keySet());
        object.propertyNames().forEach(n -> {
            if (!names.contains(n)) {
                names.add(n);
            }
        });
        if (names.isEmpty() && schema != null && examples.resolve(schema).has("additionalProperties")) {
            names.add("fuzz_key");
        }
        for (String name : names) {
            List<Object> target = append(at, name);
            targets.add(target);
            if (object.has(name)) {
                collectTargets(declared.get(name), object.get(name), target, targets, objects);
            }
        }
    }

    private boolean present(List<Object> target) {
        JsonNode node = validBody;
        for (Object step : target) {
            node = step instanceof String name ? node.get(name) : node.get((Integer) step);
            if (node == null) {
                return false;
            }
        }
        return true;
    }

    private byte[] without(List<Object> target) {
        JsonNode copy = validBody.deepCopy();
        JsonNode parent = navigate(copy, target.subList(0, target.size() - 1));
        Object last = target.get(target.size() - 1);
        if (parent instanceof ObjectNode object) {
            object.remove((String) last);
        } else {
            ((ArrayNode) parent).remove((Integer) last);
        }
        return utf8(Api.JSON.writeValueAsString(copy));
    }

    /** The valid body with the value at {@code target} replaced by raw JSON bytes (and its name too, if given). */
    private byte[] with(List<Object> target, byte[] rawName, byte[] rawValue) {
        JsonNode copy = validBody.deepCopy();
        JsonNode parent = navigate(copy, target.subList(0, target.size() - 1));
        Object last = target.get(target.size() - 1);
        if (parent instanceof ObjectNode object) {
            object.put((String) last, VALUE_MARKER);
        } else {
            ((ArrayNode) parent).set((Integer) last, VALUE_MARKER);
        }
        return replaceMarkers(Api.JSON.writeValueAsString(copy), rawName, rawValue);
    }

    /** The valid body with one more property, name and value as raw JSON bytes, in the object at {@code at}. */
    private byte[] withProperty(List<Object> at, byte[] rawName, byte[] rawValue) {
        JsonNode copy = validBody.deepCopy();
        ((ObjectNode) navigate(copy, at)).put(NAME_MARKER, VALUE_MARKER);
        return replaceMarkers(Api.JSON.writeValueAsString(copy), rawName, rawValue);
    }

    private static JsonNode navigate(JsonNode root, List<Object> path) {
        JsonNode node = root;
        for (Object step : path) {
            node = step instanceof String name ? node.get(name) : node.get((Integer) step);
        }
        return node;
    }

    private static byte[] replaceMarkers(String json, byte[] rawName, byte[] rawValue) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String rest = json;
        if (rawName != null) {
            int at = rest.indexOf("\"" + NAME_MARKER + "\"");
            out.writeBytes(utf8(rest.substring(0, at)));
            out.writeBytes(rawName);
            rest = rest.substring(at + NAME_MARKER.length() + 2);
        }
        int at = rest.indexOf("\"" + VALUE_MARKER + "\"");
        out.writeBytes(utf8(rest.substring(0, at)));
        out.writeBytes(rawValue);
        out.writeBytes(utf8(rest.substring(at + VALUE_MARKER.length() + 2)));
        return out.toByteArray();
    }

    // ----- the body as a whole -----

    private void bodyShapes() {
        byte[] valid = validBody == null ? utf8("{}") : utf8(Api.JSON.writeValueAsString(validBody));
        String validText = new String(valid, StandardCharsets.UTF_8);
        if (validBody != null) {
            add(BODY, "no body", r -> new FuzzRequest(r.method(), r.path(), r.query(), r.headers(), null)
                    .withHeader("Content-Type", null));
            add(BODY, "no body but a JSON Content-Type", r -> new FuzzRequest(r.method(), r.path(), r.query(),
                    r.headers(), null));
        } else {
            add(BODY, "a JSON body where none is taken", r -> r.withBody(utf8("{\"fuzz\":1}")));
        }
        add(BODY, "an empty body", r -> r.withBody(new byte[0]));
        for (String shape : List.of("null", "[]", "[{}]", "\"fuzz\"", "1", "true", "{", "}", "{\"a\":}", "{,}",
                "{\"a\" 1}", "{'a':1}", "a=1&b=2", " ", "\n\t\n")) {
            add(BODY, "the body " + FuzzRequest.printable(shape), r -> r.withBody(utf8(shape)));
        }
        add(BODY, "trailing garbage", r -> r.withBody(utf8(validText + " x")));
        add(BODY, "a second JSON value", r -> r.withBody(utf8(validText + " {}")));
        add(BODY, "a comment", r -> r.withBody(utf8("/* fuzz */ " + validText)));
        add(BODY, "a UTF-8 byte-order mark", r -> r.withBody(concat(bytes(0xef, 0xbb, 0xbf), valid)));
        add(BODY, "UTF-16LE", r -> r.withBody(validText.getBytes(StandardCharsets.UTF_16LE)));
        add(BODY, "UTF-16 with a BOM", r -> r.withBody(validText.getBytes(StandardCharsets.UTF_16)));
        add(BODY, "70 KiB of whitespace after it", r -> r.withBody(utf8(validText + " ".repeat(70 * 1024))));
        add(BODY, "a 1 MiB body", r -> r.withBody(utf8("[" + "1,".repeat(512 * 1024) + "1]")));
        add(BODY, "5000 unclosed brackets", r -> r.withBody(utf8("[".repeat(5000))));
        add(BODY, "arrays nested 5000 deep", r -> r.withBody(utf8("[".repeat(5000) + "]".repeat(5000))));
        add(BODY, "objects nested 5000 deep", r -> r.withBody(utf8("{\"a\":".repeat(5000) + "1" + "}".repeat(5000))));
        add(BODY, "a raw NUL byte", r -> r.withBody(bytes("{", 0x00, "}")));
        add(BODY, "invalid UTF-8 outside strings", r -> r.withBody(bytes("{", 0xff, 0xfe, "}")));
        if (validBody instanceof ObjectNode object && !object.isEmpty()) {
            String first = object.propertyNames().iterator().next();
            String duplicate = "{\"" + first + "\":" + Api.JSON.writeValueAsString(object.get(first)) + ","
                    + validText.substring(1);
            add(BODY, "the property " + first + " twice", r -> r.withBody(utf8(duplicate)));
        }
    }

    // ----- path, query, headers -----

    private void pathMutations() {
        for (String name : pathIds.keySet()) {
            String validId = pathIds.get(name);
            List<Value> values = new ArrayList<>();
            for (String prefix : ID_PREFIXES) {
                values.add(text(prefix + " id", prefix + "0123456789abcdef01234567"));
            }
            values.addAll(List.of(text("the real id in upper case", validId.toUpperCase(java.util.Locale.ROOT)),
                    text("the real id and one more char", validId + "0"), text("the real id cut", cutLast(validId)),
                    text("10000 chars", "a".repeat(10_000)), text("5000 chars", "a".repeat(5000)),
                    text("%2e%2e", "%2e%2e"), text("..", ".."), text("../", "..%2F"), text("../admin", "..%2F..%2Fadmin"),
                    text("an encoded slash", "a%2Fb"), text("an encoded backslash", "a%5Cb"), text("%ZZ", "%ZZ"),
                    text("a lone %", "%"), text("%25", "%25"), text("ü encoded", "%C3%BC"), text("🎉 encoded", "%F0%9F%8E%89"),
                    text("ü unencoded (byte FC)", "\u00fc"), text("a space encoded", "a%20b"), text("a raw space", "a b"),
                    text("a newline encoded", "a%0Ab"), text("a matrix parameter", "a;b=c"), text("a jsessionid",
                            validId + ";jsessionid=0"), text("null", "null"), text("-1", "-1"), text("0", "0"),
                    text("max long + 1", "9223372036854775808"), text("{id}", "%7Bid%7D"), text("*", "*"),
                    text("a dot", "."), text("a tilde", "~"), text("a trailing slash", validId + "/"),
                    text("an empty segment", "")));
            List<Value> nul = List.of(text("%00", "%00"), text("a%00b", "a%00b"), text("the real id then %00",
                    validId + "%00"), text("a surrogate as UTF-8 (%ED%A0%80)", "%ED%A0%80"),
                    text("an overlong NUL (%C0%80)", "%C0%80"));
            for (Value value : values) {
                add(PATH_ID, "{" + name + "} = " + value.name(), r -> r.withPath(pathWith(name, value.text())));
            }
            for (Value value : nul) {
                add(NUL_SURROGATE, "{" + name + "} = " + value.name(), r -> r.withPath(pathWith(name, value.text())));
            }
        }
        add(PATH_ID, "a trailing slash on the path", r -> r.withPath(r.path() + "/"));
        add(PATH_ID, "a double slash", r -> r.withPath(r.path().replaceFirst("/", "//")));
        add(PATH_ID, "the path in upper case", r -> r.withPath(r.path().toUpperCase(java.util.Locale.ROOT)));
        add(PATH_ID, "a suffix .json", r -> r.withPath(r.path() + ".json"));
        add(PATH_ID, "a fragment", r -> r.withPath(r.path() + "#x"));
    }

    private String pathWith(String name, String value) {
        Map<String, String> ids = new LinkedHashMap<>(pathIds);
        ids.put(name, value);
        return path(pathTemplate, ids);
    }

    private void queryMutations() {
        List<String> names = new ArrayList<>();
        operation.path("parameters").forEach(p -> {
            if (p.path("in").stringValue("").equals("query")) {
                names.add(p.get("name").stringValue());
            }
        });
        List<Value> values = List.of(text("empty", ""), text("text", "fuzz"), text("-1", "-1"), text("0", "0"),
                text("1.5", "1.5"), text("1e308", "1e308"), text("20 nines", "99999999999999999999"),
                text("max long + 1", "9223372036854775808"), text("a space", "%20"), text("a plus", "+"),
                text("an encoded plus", "%2B1"), text("5000 chars", "a".repeat(5000)), text("10000 chars", "a".repeat(10_000)),
                text("ü", "%C3%BC"), text("🎉", "%F0%9F%8E%89"), text("%ZZ", "%ZZ"), text("a lone %", "%"),
                text("a bad date-time", "2030-13-45T99:99:99Z"), text("a date", "2030-01-31"),
                text("a date-time with offset +99:00", "2030-01-31T00:00:00%2B99:00"),
                text("a redemption id", "rdm_ffffffffffffffffffffffff"), text("a customer id", "bcus_000000000000000000000000"),
                text("../", "..%2F"), text("[]", "%5B%5D"), text("{}", "%7B%7D"), text("null", "null"), text("true", "true"),
                text("a raw ü (byte FC)", "\u00fc"), text("a raw quote", "\""), text("a raw <", "<"));
        List<Value> nul = List.of(text("%00", "%00"), text("a%00b", "a%00b"),
                text("a surrogate as UTF-8 (%ED%A0%80)", "%ED%A0%80"), text("an overlong NUL (%C0%80)", "%C0%80"));
        for (String name : names) {
            String encodedName = name;
            for (Value value : values) {
                add(QUERY, name + "=" + value.name(), r -> r.withQuery(encodedName + "=" + value.text()));
            }
            for (Value value : nul) {
                add(NUL_SURROGATE, "query " + name + "=" + value.name(), r -> r.withQuery(encodedName + "=" + value.text()));
            }
            add(QUERY, name + " twice", r -> r.withQuery(encodedName + "=1").withQuery(encodedName + "=2"));
            add(QUERY, name + " without =", r -> r.withQuery(encodedName));
            add(QUERY, name + "[]", r -> r.withQuery(encodedName + "[]=1"));
            add(QUERY, name + "[gte]", r -> r.withQuery(encodedName + "[gte]=1"));
        }
        for (String item : List.of("fuzz_unknown=1", "limit[gte]=1", "created_at[gt]=2030-01-01T00:00:00Z",
                "created_at[]=x", "=x", "&&&", "a=b=c", "created_at=2030-01-01", "caller=other")) {
            add(QUERY, "query " + item, r -> r.withQuery(item));
        }
        add(NUL_SURROGATE, "query name %00", r -> r.withQuery("%00=1"));
    }

    private void headerMutations() {
        String utf8U = new String(utf8("ü"), StandardCharsets.ISO_8859_1);
        List<Value> idempotencyKeys = List.of(text("empty", ""), text("a space", " "), text("200 chars", "k".repeat(200)),
                text("201 chars", "k".repeat(201)), text("5000 chars", "k".repeat(5000)),
                text("10000 chars", "k".repeat(10_000)), text("a NUL byte", "a\u0000b"), text("a 0x01 byte", "a\u0001b"),
                text("DEL", "a\u007fb"), text("UTF-8 ü bytes", "a" + utf8U), text("byte FF", "a\u00ff"),
                text("a comma", "a,b"), text("a tab inside", "a\tb"));
        for (Value value : idempotencyKeys) {
            add(HEADER, "Idempotency-Key " + value.name(), r -> r.withHeader("Idempotency-Key", value.text()));
        }
        for (String contentType : List.of("text/plain", "application/xml", "application/json; charset=ISO-8859-1",
                "application/json; charset=utf-16", "application/json; charset=nonsense", "garbage", "",
                "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json;;;", "*/*",
                "application/*", "application/problem+json", "application/merge-patch+json", "text/json",
                "application/json; charset=\"", "application/json, text/plain")) {
            add(HEADER, "Content-Type " + (contentType.isEmpty() ? "empty" : contentType), r -> r.withBody(
                    r.body() == null ? utf8("{}") : r.body()).withHeader("Content-Type", contentType));
        }
        add(HEADER, "no Content-Type", r -> r.withBody(r.body() == null ? utf8("{}") : r.body())
                .withHeader("Content-Type", null));
        for (Value value : List.of(text("empty", ""), text("*", "*"), text("a quote", "\""), text("W/", "W/"),
                text("W/\"1\"", "W/\"1\""), text("\"1\"", "\"1\""), text("abc", "abc"), text("20 nines", "99999999999999999999"),
                text("-1", "-1"), text("0", "0"), text("a list", "\"1\", \"2\""), text("5000 chars", "1".repeat(5000)),
                text("a NUL byte", "1\u0000"), text("UTF-8 ü bytes", utf8U))) {
            add(HEADER, "If-Match " + value.name(), r -> r.withHeader("If-Match", value.text()));
        }
        for (String accept : List.of("text/html", "application/xml", "image/png", "garbage", "application/problem+json",
                "*/*;q=0", "application/json;q=0", "text/*")) {
            add(HEADER, "Accept " + accept, r -> r.withHeader("Accept", accept));
        }
        for (Value value : List.of(text("removed", null), text("Bearer", "Bearer"), text("Bearer and a space", "Bearer "),
                text("Basic", "Basic Zm9vOmJhcg=="), text("an unknown sk_test key", "Bearer sk_test_" + "0".repeat(40)),
                text("5000 chars", "Bearer " + "k".repeat(5000)), text("a NUL byte", "Bearer sk_test_\u0000"),
                text("lower-case bearer", "bearer sk_test_abc"), text("two keys", "Bearer a, Bearer b"))) {
            add(HEADER, "Authorization " + value.name(), r -> r.withHeader("Authorization", value.text()));
        }
        add(HEADER, "Request-Id 5000 chars", r -> r.withHeader("Request-Id", "r".repeat(5000)));
        add(HEADER, "Request-Id with a NUL byte", r -> r.withHeader("Request-Id", "req_\u0000"));
        add(HEADER, "Transfer-Encoding chunked beside Content-Length", r -> r.withBody(r.body() == null ? utf8("{}")
                : r.body()).withHeader("Transfer-Encoding", "chunked"));
        add(HEADER, "Expect 100-continue", r -> r.withHeader("Expect", "100-continue"));
        add(HEADER, "Accept-Charset nonsense", r -> r.withHeader("Accept-Charset", "nonsense"));
        add(HEADER, "X-HTTP-Method-Override DELETE", r -> r.withHeader("X-HTTP-Method-Override", "DELETE"));
    }

    // ----- helpers -----

    private void add(String family, String description, UnaryOperator<FuzzRequest> apply) {
        catalogue.get(family).add(new Mutation(family, description, apply));
    }

    /** A named value: JSON bytes for the body, or text for a path, query or header. */
    private record Value(String name, byte[] json, String text) {
    }

    private static Value json(String name, String json) {
        return new Value(name, utf8(json), null);
    }

    private static Value raw(String name, byte[] json) {
        return new Value(name, json, null);
    }

    private static Value text(String name, String text) {
        return new Value(name, null, text);
    }

    private static String keys(int count) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : ",").append("\"fuzz_").append(i).append("\":1");
        }
        return out.append('}').toString();
    }

    private static String pointer(List<Object> path) {
        StringBuilder out = new StringBuilder();
        for (Object step : path) {
            if (step instanceof Integer index) {
                out.append('[').append(index).append(']');
            } else {
                out.append(out.isEmpty() ? "" : ".").append(step);
            }
        }
        return out.toString();
    }

    private static List<Object> append(List<Object> path, Object step) {
        List<Object> longer = new ArrayList<>(path);
        longer.add(step);
        return List.copyOf(longer);
    }

    private static String camelCase(String snake) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    private static String cutLast(String id) {
        return id.isEmpty() ? id : id.substring(0, id.length() - 1);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Bytes from a mix of strings (as UTF-8) and integers (as single bytes). */
    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String text) {
                out.writeBytes(utf8(text));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }
}
