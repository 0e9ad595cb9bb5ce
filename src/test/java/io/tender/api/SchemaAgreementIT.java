package io.tender.api;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that /openapi.json and the hand-written request parsers ({@link JsonInput}, {@link ListQuery}) declare the
 * same request shapes (issue 17 item 3). It reads the document at run time and, for every operation, starts from the
 * valid request {@link OpenApiFuzzIT} sends ({@link ValidRequests}) and changes one thing at a time:
 * <ul>
 *   <li>each body property (nested objects too) and query parameter at each declared limit ({@code maxLength},
 *       {@code minLength}, {@code minimum}, {@code maximum}, {@code maxItems}, {@code maxProperties}, every
 *       {@code enum} value): no 400 naming it;</li>
 *   <li>just past each limit, outside the enum, against the pattern, of the wrong JSON type: a 400 naming exactly
 *       that field (or a part of it, such as {@code metadata.k} or {@code ids[0]});</li>
 *   <li>each required property left out: a 400 naming it (every optional one is left out by the valid request,
 *       which is not refused);</li>
 *   <li>an undeclared property or query parameter: a 400 naming it as not a known one; and every property name the
 *       document declares anywhere, sent where this operation does not declare it, all at once: each one refused by
 *       name (as not known, or as not belonging here), so no parser accepts a field its schema leaves out.</li>
 * </ul>
 * A property that a rule across properties refuses alone is tried with the properties the refusal names added or
 * left out (currency with amount; one of bill, account or customer). Rules the schema states only in words that this
 * cannot satisfy ({@link #IN_WORDS}, {@link #NARROWED}, and any found at run time, which are printed) keep a
 * property, or one bound of it, from being tried. Bodies declared as Jackson's
 * {@code JsonNode} (issue 17 item 7 gives them real schemas) declare no properties and are not checked until then.
 * All disagreements of a run are reported together.
 */
class SchemaAgreementIT extends LiveProvidersIntegrationTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String UNDECLARED = "zz_not_declared";

    @Autowired
    private Checkout checkout;

    /**
     * Limits that a rule across properties narrows, by {@code METHOD /path field}: the declared bound is valid only
     * with the other property's value, which the base request does not match. Each with the rule.
     */
    private static final Map<String, String> NARROWED = Map.of(
            "POST /collect/payment_pages amount_options.max", "max must be at least min",
            "PATCH /collect/payment_pages/{id} amount_options.max", "max must be at least min",
            "PATCH /billing/bills/{bill} amount_paid", "amount_paid must be at most amount_due",
            "POST /collect/payment_pages amount_options.presets", "presets must each be from min to max",
            "PATCH /collect/payment_pages/{id} amount_options.presets", "presets must each be from min to max");

    /**
     * Properties that a rule across properties, stated in the schema in words, refuses in the valid request, by
     * {@code METHOD /path field}; each with the rule. They are not tried alone.
     */
    private static final Map<String, String> IN_WORDS = Map.of(
            "POST /collect/payment_requests notify.email", "needs the customer's email (customer.email, or a billing "
                    + "customer with one)",
            "POST /collect/payment_requests notify.sms", "needs the customer's phone",
            "POST /collect/payment_requests push", "belongs to a push request (type push)",
            "POST /collect/payment_sessions options.checkout_options.display_pay_button", "applies to embedded "
                    + "presentation modes only",
            "POST /collect/payment_sessions payment_method_id", "only with type next_in_series",
            "POST /collect/payment_sessions mandate_id", "only with type next_in_series",
            "POST /collect/payment_sessions options.mandate_options", "only with type first_in_series (and a customer)",
            "POST /collect/payment_sessions options.subscription_options", "only with type first_in_series (and a "
                    + "customer)");

    private static final Pattern ID_PATTERN = Pattern.compile("^\\^([a-z]+_)\\[a-f0-9]\\{(\\d+)\\}\\$$");

    private final String nonce = UUID.randomUUID().toString().substring(0, 8);
    private final List<String> acrossProperties = new ArrayList<>();
    private JsonNode document;

    @BeforeEach
    void document() {
        document = ValidRequests.document(anonymous());
    }

    private record Operation(String method, String path, JsonNode spec) {
        String label() {
            return method + " " + path;
        }
    }

    @Test
    void everyOperationsParserAcceptsAndRefusesWhatItsSchemaDeclares() throws Exception {
        List<Operation> operations = new ArrayList<>();
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            if (Set.of("get", "post", "put", "patch", "delete").contains(op.getKey())) {
                operations.add(new Operation(op.getKey().toUpperCase(Locale.ROOT), path.getKey(), op.getValue()));
            }
        }));
        Set<String> declaredNames = new TreeSet<>();
        collectNames(document.path("components").path("schemas"), declaredNames);

        List<Future<Check>> checks = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            for (int i = 0; i < operations.size(); i++) {
                Operation operation = operations.get(i);
                String unique = nonce + Integer.toString(i, 36);
                checks.add(pool.submit(() -> new Check(operation, unique, declaredNames).run()));
            }
        }
        List<String> disagreements = new ArrayList<>();
        int sent = 0;
        for (Future<Check> check : checks) {
            disagreements.addAll(check.get().disagreements);
            sent += check.get().sent;
        }
        System.out.printf(Locale.ROOT, "SchemaAgreementIT: %d requests to %d operations; %d properties not tried "
                + "alone (rules across properties):%n  %s%n", sent, operations.size(), acrossProperties.size(),
                String.join("\n  ", acrossProperties));
        assertThat(disagreements).as("where the parser and /openapi.json disagree").isEmpty();
        assertThat(sent).as("the checks ran").isGreaterThan(operations.size() * 5);
    }

    /** Every property name declared by any schema of the document. */
    private static void collectNames(JsonNode node, Set<String> names) {
        if (node.isObject()) {
            node.path("properties").properties().forEach(p -> names.add(p.getKey()));
            node.forEach(child -> collectNames(child, names));
        } else if (node.isArray()) {
            node.forEach(child -> collectNames(child, names));
        }
    }

    /** The checks of one operation, with a merchant and objects of its own. */
    private final class Check {

        private final Operation operation;
        private final Set<String> declaredNames;
        private final List<String> disagreements = new ArrayList<>();
        private final Merchant merchant = merchants.create();
        private final ValidRequests.Fixtures fixtures;
        private final SchemaExamples examples;
        private String path;
        private JsonNode validBody;
        private int sent;

        Check(Operation operation, String unique, Set<String> declaredNames) {
            this.operation = operation;
            this.declaredNames = declaredNames;
            this.fixtures = new ValidRequests.Fixtures(merchants, merchant, checkout, nonce + unique);
            this.examples = fixtures.examples(document, unique);
        }

        Check run() {
            Map<String, String> pathIds = new LinkedHashMap<>();
            List<JsonNode> query = new ArrayList<>();
            for (JsonNode parameter : operation.spec().path("parameters")) {
                String in = parameter.path("in").stringValue("");
                if (in.equals("path")) {
                    String name = parameter.get("name").stringValue();
                    pathIds.put(name, fixtures.id(ValidRequests.kindOfPathParameter(operation.path(), name)));
                } else if (in.equals("query")) {
                    query.add(parameter);
                }
            }
            path = FuzzMutations.path(operation.path(), pathIds);
            JsonNode bodySchema = operation.spec().path("requestBody").path("content").path("application/json")
                    .get("schema");
            validBody = ValidRequests.validBody(operation.label(), examples, bodySchema);
            Api.Response valid = send(path, validBody);
            if (valid.status() == 400) {
                disagree("", "the valid request is refused: " + valid.text());
                return this;
            }
            for (JsonNode parameter : query) {
                queryParameter(parameter);
            }
            if (!query.isEmpty()) {
                expectUnknown(UNDECLARED, send(path + "?" + UNDECLARED + "=1", validBody), "query parameter");
            }
            boolean pseudo = bodySchema != null
                    && ValidRequests.JSON_NODE_SCHEMA.equals(bodySchema.path("$ref").stringValue(""));
            if (bodySchema != null && !pseudo && validBody instanceof ObjectNode) {
                object(examples.objectBranch(bodySchema, validBody), List.of());
            }
            return this;
        }

        // ---------------------------------------------------------------------------------------------- query

        private void queryParameter(JsonNode parameter) {
            String name = parameter.get("name").stringValue();
            JsonNode schema = examples.resolve(parameter.path("schema"));
            for (Probe probe : probes(schema, NODES.stringNode("x"), false)) {
                // In a query string every value is text: a number is a string parameter's valid value.
                boolean text = SchemaExamples.types(schema).contains("string");
                if (probe.value().isString() || (probe.value().isNumber() && !text)) {
                    String value = probe.value().isString() ? probe.value().stringValue() : probe.value().toString();
                    if (!text && probe.what().equals("a string")) {
                        value = "twelve"; // "12" is a number in a query string
                    }
                    String target = path + "?" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "="
                            + URLEncoder.encode(value, StandardCharsets.UTF_8);
                    expect(name, probe, send(target, validBody));
                }
            }
        }

        // ----------------------------------------------------------------------------------------------- body

        /** Checks the object schema found at {@code at} in the valid body (the body itself when empty). */
        private void object(JsonNode schema, List<String> at) {
            if (schema == null) {
                return;
            }
            ObjectNode base = (ObjectNode) get(validBody, at);
            Map<String, JsonNode> properties = examples.properties(schema);
            Set<String> required = new TreeSet<>();
            schema.path("required").forEach(r -> required.add(r.stringValue()));

            expectUnknown(field(at, UNDECLARED), send(path, with(at, UNDECLARED, NODES.stringNode("x"))), "property");
            // Every name declared elsewhere in the document, sent here at once: the parser accepts none it leaves out.
            ObjectNode others = base.deepCopy();
            List<String> sentNames = new ArrayList<>();
            for (String name : declaredNames) {
                if (!properties.containsKey(name) && !base.has(name)) {
                    others.put(name, "x");
                    sentNames.add(name);
                }
            }
            if (!sentNames.isEmpty()) {
                Api.Response answer = send(path, replace(at, others));
                for (String name : sentNames) {
                    expectUnknown(field(at, name), answer, "property");
                }
            }

            for (String name : required) {
                if (base.has(name)) {
                    ObjectNode without = base.deepCopy();
                    without.remove(name);
                    Api.Response answer = send(path, replace(at, without));
                    if (answer.status() != 400 || !fields(answer).contains(field(at, name))) {
                        disagree(field(at, name), "required, but leaving it out is not a 400 naming it: "
                                + summary(answer));
                    }
                }
            }

            for (Map.Entry<String, JsonNode> property : properties.entrySet()) {
                String name = property.getKey();
                JsonNode valid = base.has(name) ? base.get(name) : example(property.getValue(), name);
                boolean reference = ValidRequests.KINDS.containsKey(name);
                JsonNode resolved = resolveQuietly(property.getValue());
                if (resolved == null) {
                    disagree(field(at, name), "its schema does not resolve: " + property.getValue());
                    continue;
                }
                if (!base.has(name)) {
                    Api.Response alone = send(path, with(at, name, valid));
                    if (alone.status() == 400 && fields(alone).stream().allMatch(f -> about(f, field(at, name)))
                            && !IN_WORDS.containsKey(operation.label() + " " + field(at, name))) {
                        disagree(field(at, name), "a value its schema allows (" + valid + ") is refused: "
                                + summary(alone));
                        continue;
                    }
                    JsonNode partnered = alone.status() == 400 ? partnered(at, base, properties, name, alone) : null;
                    if (partnered != null) {
                        // A rule across properties (currency with amount, one of bill/account/customer): the
                        // properties the refusal names are added or left out, and the property is tried so.
                        ObjectNode tried = ((ObjectNode) partnered).deepCopy();
                        tried.set(name, valid);
                        alone = send(path, replace(at, tried));
                    }
                    if (alone.status() == 400) {
                        // A rule across properties that the schema states only in words (push only for type push,
                        // ...): this property cannot be tried alone.
                        synchronized (acrossProperties) {
                            acrossProperties.add(operation.label() + " " + field(at, name) + ": " + summary(alone));
                        }
                        continue;
                    }
                    if (partnered != null) {
                        JsonNode saved = validBody;
                        validBody = replace(at, (ObjectNode) partnered);
                        try {
                            tryProperty(at, name, resolved, valid, reference);
                        } finally {
                            validBody = saved;
                        }
                        continue;
                    }
                }
                tryProperty(at, name, resolved, valid, reference);
            }
        }

        /** The probes of one property, then its nested object's properties. */
        private void tryProperty(List<String> at, String name, JsonNode resolved, JsonNode valid, boolean reference) {
            {
                for (Probe probe : probes(resolved, valid, reference)) {
                    expect(field(at, name), probe, send(path, with(at, name, probe.value())));
                }
                JsonNode nested = SchemaExamples.types(resolved).contains("object") || resolved.has("properties")
                        ? examples.objectBranch(resolved) : null;
                if (nested != null && nested.has("properties")) {
                    ObjectNode saved = (ObjectNode) validBody;
                    validBody = with(at, name, valid.isObject() ? valid : NODES.objectNode());
                    object(nested, append(at, name));
                    validBody = saved;
                }
            }
        }

        /**
         * The object at {@code at} with the other properties that {@code refusal} names added (from their schema) or
         * left out (where present); null when it names none of them.
         */
        private JsonNode partnered(List<String> at, ObjectNode base, Map<String, JsonNode> properties, String name,
                                   Api.Response refusal) {
            ObjectNode copy = base.deepCopy();
            boolean changed = false;
            for (String named : fields(refusal)) {
                String prefix = at.isEmpty() ? "" : String.join(".", at) + ".";
                String other = named.startsWith(prefix) ? named.substring(prefix.length()) : null;
                if (other == null || other.equals(name) || other.contains(".") || other.contains("[")) {
                    continue;
                }
                if (copy.has(other)) {
                    copy.remove(other);
                    changed = true;
                } else if (properties.containsKey(other)) {
                    copy.set(other, example(properties.get(other), other));
                    changed = true;
                }
            }
            return changed ? copy : null;
        }

        /** A valid value for an optional property: built from its schema, else its default, else "x". */
        private JsonNode example(JsonNode schema, String name) {
            JsonNode resolved = resolveQuietly(schema);
            if (resolved != null && resolved.path("format").stringValue("").equals("date-time")) {
                // Expiry times are bounded from now (payment sessions: 30 minutes to 7 days; links: to 30 days).
                return NODES.stringNode(java.time.Instant.now().plus(java.time.Duration.ofHours(25))
                        .truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString());
            }
            var id = resolved == null ? null
                    : ID_PATTERN.matcher(resolved.path("pattern").stringValue(""));
            if (id != null && id.matches() && (name == null || !ValidRequests.KINDS.containsKey(name))) {
                // An id of an object that does not exist: found or not is the handler's answer (404), not a 400.
                return NODES.stringNode(id.group(1) + "0".repeat(Integer.parseInt(id.group(2))));
            }
            try {
                return examples.valid(schema, name, Set.of());
            } catch (IllegalStateException e) {
                return resolved != null && resolved.has("default") ? resolved.get("default") : NODES.stringNode("x");
            }
        }

        private JsonNode resolveQuietly(JsonNode schema) {
            try {
                JsonNode resolved = examples.resolve(schema);
                if (!resolved.has("type") && !resolved.has("properties") && !resolved.has("enum")) {
                    for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
                        for (JsonNode branch : resolved.path(combinator)) {
                            JsonNode b = examples.resolve(branch);
                            if (!SchemaExamples.types(b).equals(List.of("null"))) {
                                return b;
                            }
                        }
                    }
                }
                return resolved;
            } catch (IllegalStateException e) {
                return null;
            }
        }

        // --------------------------------------------------------------------------------------------- probes

        /** A value sent for a field, and whether the schema accepts it. */
        private record Probe(String what, JsonNode value, boolean accepted) {
        }

        private List<Probe> probes(JsonNode schema, JsonNode valid, boolean reference) {
            List<Probe> probes = new ArrayList<>();
            List<String> types = SchemaExamples.types(schema);
            String type = types.stream().filter(t -> !t.equals("null")).findFirst()
                    .orElse(schema.has("properties") ? "object" : schema.has("enum") ? "string" : "");
            switch (type) {
                case "string" -> {
                    probes.add(new Probe("a number", NODES.numberNode(12345), false));
                    if (reference) {
                        break;
                    }
                    for (JsonNode value : schema.path("enum")) {
                        probes.add(new Probe("enum value " + value, value, true));
                    }
                    if (schema.has("enum")) {
                        probes.add(new Probe("a value outside the enum", NODES.stringNode("zz_not_in_enum"), false));
                    }
                    String seed = valid != null && valid.isString() ? valid.stringValue() : "x";
                    String format = schema.path("format").stringValue("");
                    boolean sized = !Set.of("date", "date-time").contains(format);
                    if (schema.has("maxLength") && sized) {
                        int max = schema.get("maxLength").intValue();
                        String at = fit(schema, seed, max);
                        if (at != null) {
                            probes.add(new Probe("maxLength " + max, NODES.stringNode(at), true));
                        }
                        probes.add(new Probe("maxLength " + max + " + 1",
                                NODES.stringNode(sized(format, seed, max + 1, 'a')), false));
                    }
                    if (schema.path("minLength").intValue(0) > 0 && sized) {
                        int min = schema.get("minLength").intValue();
                        String at = fit(schema, seed, min);
                        if (at != null) {
                            probes.add(new Probe("minLength " + min, NODES.stringNode(at), true));
                        }
                        probes.add(new Probe("minLength " + min + " - 1",
                                NODES.stringNode(min == 1 ? "" : sized(format, seed, min - 1, 'a')), false));
                    }
                    if (schema.has("pattern") && !schema.has("enum")) {
                        Pattern pattern = Pattern.compile(schema.get("pattern").stringValue());
                        for (String candidate : List.of("!!", "zz zz", "a\tb", "#")) {
                            if (!pattern.matcher(candidate).find()) {
                                probes.add(new Probe("against the pattern", NODES.stringNode(candidate), false));
                                break;
                            }
                        }
                    }
                }
                case "integer", "number" -> {
                    probes.add(new Probe("a string", NODES.stringNode("12"), false));
                    if (type.equals("integer")) {
                        probes.add(new Probe("a fraction", NODES.numberNode(1.5), false));
                    }
                    if (schema.has("minimum")) {
                        long min = schema.get("minimum").longValue();
                        probes.add(new Probe("minimum " + min, NODES.numberNode(min), true));
                        probes.add(new Probe("minimum " + min + " - 1", NODES.numberNode(min - 1), false));
                    }
                    if (schema.has("maximum")) {
                        long max = schema.get("maximum").longValue();
                        probes.add(new Probe("maximum " + max, NODES.numberNode(max), true));
                        probes.add(new Probe("maximum " + max + " + 1", NODES.numberNode(max + 1), false));
                    }
                }
                case "boolean" -> probes.add(new Probe("a string", NODES.stringNode("true"), false));
                case "array" -> {
                    probes.add(new Probe("a string", NODES.stringNode("x"), false));
                    JsonNode items = schema.has("items") ? resolveQuietly(schema.get("items")) : null;
                    if (schema.has("maxItems") && items != null) {
                        int max = schema.get("maxItems").intValue();
                        probes.add(new Probe("maxItems " + max, items(items, valid, max), true));
                        probes.add(new Probe("maxItems " + max + " + 1", items(items, valid, max + 1), false));
                    }
                    if (items != null && SchemaExamples.types(items).contains("string")) {
                        ArrayNode wrong = NODES.arrayNode();
                        wrong.add(12345);
                        probes.add(new Probe("an item of the wrong type", wrong, false));
                    }
                }
                case "object" -> {
                    probes.add(new Probe("a string", NODES.stringNode("x"), false));
                    JsonNode values = schema.get("additionalProperties");
                    if (values != null && values.isObject()) {
                        JsonNode resolvedValues = resolveQuietly(values);
                        if (schema.has("maxProperties")) {
                            int max = schema.get("maxProperties").intValue();
                            probes.add(new Probe("maxProperties " + max, map(max, "v"), true));
                            probes.add(new Probe("maxProperties " + max + " + 1", map(max + 1, "v"), false));
                        }
                        if (resolvedValues != null && resolvedValues.has("maxLength")) {
                            int max = resolvedValues.get("maxLength").intValue();
                            probes.add(new Probe("a value of maxLength " + max, map(1, "v".repeat(max)), true));
                            probes.add(new Probe("a value of maxLength " + max + " + 1",
                                    map(1, "v".repeat(max + 1)), false));
                        }
                        if (resolvedValues != null && SchemaExamples.types(resolvedValues).contains("string")) {
                            ObjectNode wrong = NODES.objectNode();
                            wrong.put("k", 12345);
                            probes.add(new Probe("a value of the wrong type", wrong, false));
                        }
                    }
                }
                default -> {
                }
            }
            return probes;
        }

        /** A string of {@code length} that fits the schema's pattern and format, from {@code seed}; null if none is found. */
        private static String fit(JsonNode schema, String seed, int length) {
            Pattern pattern = schema.has("pattern") ? Pattern.compile(schema.get("pattern").stringValue()) : null;
            String format = schema.path("format").stringValue("");
            for (char fill : new char[]{'a', 'A', '0', '1', 'x', 'Z'}) {
                String candidate = sized(format, seed, length, fill);
                if (candidate.length() == length && (pattern == null || pattern.matcher(candidate).find())) {
                    return candidate;
                }
            }
            return null;
        }

        /** {@code seed} cut or filled to {@code length}, keeping an email's domain and a URL's scheme and host. */
        private static String sized(String format, String seed, int length, char fill) {
            if (format.equals("email") && length > 20) {
                // A local part has at most 64 characters: the length goes into the domain's labels.
                StringBuilder domain = new StringBuilder();
                int room = length - "a@".length() - ".com".length();
                while (room > 0) {
                    int label = Math.min(63, room);
                    if (domain.length() > 0) {
                        domain.append('.');
                        label = Math.min(63, room - 1);
                    }
                    if (label <= 0) {
                        domain.append(String.valueOf(fill).repeat(0));
                        break;
                    }
                    domain.append(String.valueOf(Character.toLowerCase(fill)).repeat(label));
                    room = length - "a@".length() - ".com".length() - domain.length();
                }
                return "a@" + domain + ".com";
            }
            String tail = switch (format) {
                case "email" -> "@example.com";
                default -> "";
            };
            String head = switch (format) {
                case "uri", "url" -> "https://example.com/";
                default -> "";
            };
            String body = tail.isEmpty() && head.isEmpty() ? seed : "";
            int room = length - head.length() - tail.length();
            if (room < 0) {
                return seed.substring(0, Math.min(seed.length(), length));
            }
            body = body.length() >= room ? body.substring(0, room)
                    : body + String.valueOf(fill).repeat(room - body.length());
            return head + body + tail;
        }

        private ArrayNode items(JsonNode items, JsonNode valid, int count) {
            ArrayNode array = NODES.arrayNode();
            List<JsonNode> distinct = new ArrayList<>();
            items.path("enum").forEach(distinct::add);
            JsonNode one = valid != null && valid.isArray() && !valid.isEmpty() ? valid.get(0)
                    : example(items, null);
            for (int i = 0; i < count; i++) {
                if (i < distinct.size()) {
                    array.add(distinct.get(i));
                } else if (one.isString() && !items.has("enum")) {
                    array.add(sized(items.path("format").stringValue(""), one.stringValue() + i,
                            Math.min(one.stringValue().length() + 3, items.path("maxLength").intValue(200)), 'a'));
                } else if (one.isIntegralNumber()) {
                    array.add(one.longValue() + i);
                } else if (one.isObject()) {
                    // Items that must be distinct (custom fields' keys): each string without an enum made unique.
                    ObjectNode item = (ObjectNode) one.deepCopy();
                    String suffix = "a" + (char) ('a' + i % 26) + (char) ('a' + i / 26);
                    examples.properties(items).forEach((key, schema) -> {
                        JsonNode property = resolveQuietly(schema);
                        if (item.path(key).isString() && property != null && !property.has("enum")) {
                            String value = item.get(key).stringValue();
                            item.put(key, value.substring(0, Math.min(value.length(),
                                    property.path("maxLength").intValue(200) - 3)) + suffix);
                        }
                    });
                    array.add(item);
                } else {
                    array.add(one.deepCopy());
                }
            }
            return array;
        }

        private static ObjectNode map(int entries, String value) {
            ObjectNode map = NODES.objectNode();
            for (int i = 0; i < entries; i++) {
                map.put("k" + i, value);
            }
            return map;
        }

        // --------------------------------------------------------------------------------------------- oracle

        private void expect(String field, Probe probe, Api.Response answer) {
            Set<String> named = fields(answer);
            boolean namesIt = named.stream().anyMatch(f -> about(f, field));
            if (probe.accepted()) {
                if (answer.status() == 400 && namesIt && !NARROWED.containsKey(operation.label() + " " + field)) {
                    disagree(field, probe.what() + " is declared valid, yet refused: " + summary(answer));
                }
            } else if (answer.status() != 400 || !namesIt || !named.stream().allMatch(f -> about(f, field))) {
                disagree(field, probe.what() + " is declared invalid, yet not a 400 naming exactly it: "
                        + summary(answer));
            }
        }

        /**
         * An undeclared property must be refused, naming it: as not a known one, or (where the parser knows it from
         * another operation) with why it does not belong here ("cannot be changed", "is not set on create").
         */
        private void expectUnknown(String field, Api.Response answer, String kind) {
            boolean named = answer.status() == 400 && errors(answer).stream().anyMatch(e ->
                    e.path("field").stringValue("").equals(field)
                            && (!field.endsWith(UNDECLARED) || e.path("message").stringValue("").contains("not a known")));
            if (!named) {
                String said = errors(answer).stream().filter(e -> e.path("field").stringValue("").equals(field))
                        .map(e -> e.path("message").stringValue("")).findFirst().orElse("(not named)");
                disagree(field, "not declared, yet not refused as an unknown " + kind + ": " + answer.status()
                        + " " + said);
            }
        }

        private static boolean about(String named, String field) {
            return named.equals(field) || named.startsWith(field + ".") || named.startsWith(field + "[");
        }

        private void disagree(String field, String what) {
            synchronized (disagreements) {
                disagreements.add(operation.label() + " " + field + ": " + what);
            }
        }

        // ------------------------------------------------------------------------------------------ plumbing

        private Api.Response send(String target, JsonNode body) {
            sent++;
            Api.Request request = merchant.test().method(operation.method(), target,
                    body == null ? null : body.toString());
            if (Set.of("POST", "PATCH").contains(operation.method())) {
                request.idempotencyKey("agree-" + UUID.randomUUID());
            }
            return request.send();
        }

        /** The valid body with the property {@code name} of the object at {@code at} set to {@code value}. */
        private JsonNode with(List<String> at, String name, JsonNode value) {
            ObjectNode object = ((ObjectNode) get(validBody, at)).deepCopy();
            object.set(name, value);
            return replace(at, object);
        }

        /** The valid body with the object at {@code at} replaced. */
        private JsonNode replace(List<String> at, ObjectNode object) {
            if (at.isEmpty()) {
                return object;
            }
            JsonNode copy = validBody.deepCopy();
            ObjectNode parent = (ObjectNode) get(copy, at.subList(0, at.size() - 1));
            parent.set(at.getLast(), object);
            return copy;
        }

        private static JsonNode get(JsonNode node, List<String> at) {
            JsonNode current = node;
            for (String name : at) {
                current = current.get(name);
            }
            return current;
        }

        private static List<String> append(List<String> at, String name) {
            List<String> longer = new ArrayList<>(at);
            longer.add(name);
            return longer;
        }

        private static String field(List<String> at, String name) {
            return at.isEmpty() ? name : String.join(".", at) + "." + name;
        }

        private static List<JsonNode> errors(Api.Response answer) {
            List<JsonNode> errors = new ArrayList<>();
            try {
                answer.json().path("errors").forEach(errors::add);
            } catch (RuntimeException e) {
                // not JSON: no errors named
            }
            return errors;
        }

        private static Set<String> fields(Api.Response answer) {
            Set<String> fields = new TreeSet<>();
            errors(answer).forEach(e -> fields.add(e.path("field").stringValue("")));
            return fields;
        }

        private static String summary(Api.Response answer) {
            List<JsonNode> errors = errors(answer);
            String body = errors.isEmpty() ? answer.text() : errors.stream()
                    .map(e -> e.path("field").stringValue("") + " " + e.path("message").stringValue(""))
                    .reduce((a, b) -> a + "; " + b).orElse("");
            return answer.status() + " " + (body.length() > 400 ? body.substring(0, 400) + "…" : body);
        }
    }
}
