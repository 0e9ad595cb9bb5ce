package io.tender.api;

import io.tender.support.Api;
import io.tender.support.LiveProvidersIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.RawHttp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.tender.checkout.Checkout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A fuzz test driven by /openapi.json (hardening, issue 15). It reads the document at run time and, for every
 * operation, creates the objects its path names, sends a valid request built from the schema (asserted 2xx, so the
 * fuzzer is known to reach the handler and not only the validators), then a seeded, capped pick of mutations: missing,
 * null and wrong-typed fields, boundary and huge numbers, huge, non-ASCII, NUL and lone-surrogate strings, deep
 * nesting, unknown fields, broken bodies, odd ids in paths, bad query values and bad headers.
 * <p>
 * The oracle: no answer is a 5xx, and every 4xx is {@code application/problem+json} with a string {@code code}. All
 * failures of a run are reported together, with the seed that reproduces them.
 * <p>
 * Properties: {@code tender.fuzz.seed} (default {@value #DEFAULT_SEED}), {@code tender.fuzz.mutations} (cap per
 * operation, default {@value #DEFAULT_CAP}), {@code tender.fuzz.operations} (only operations whose
 * {@code METHOD /path} contains this text), {@code tender.fuzz.skip} (comma-separated mutation families, or texts
 * that a skipped {@code METHOD /path family: description} contains).
 * <p>
 * It runs in the live-providers context because only there do test-mode sandbox providers hold (ott, provider_c), and
 * confirm and reverse can answer 2xx only on a held redemption.
 */
class OpenApiFuzzIT extends LiveProvidersIntegrationTest {

    static final long DEFAULT_SEED = 20260520L;
    static final int DEFAULT_CAP = 200;

    private static final long SEED = Long.getLong("tender.fuzz.seed", DEFAULT_SEED);
    private static final int CAP = Integer.getInteger("tender.fuzz.mutations", DEFAULT_CAP);
    private static final int THREADS = 3;
    private static final String ONLY = System.getProperty("tender.fuzz.operations", "");
    private static final List<String> SKIP = Arrays.stream(System.getProperty("tender.fuzz.skip", "").split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).toList();

    /**
     * Operations that /openapi.json leaves out on purpose (operators' and support endpoints, {@code @Hidden}), in the
     * document's own form, so the fuzzer treats them like the rest. {@code x-fuzz-auth: admin} sends the admin token.
     */
    private static final String NOT_IN_THE_DOCUMENT = """
            {"paths": {
              "/admin/merchants": {
                "post": {"x-fuzz-auth": "admin", "requestBody": {"required": true, "content": {"application/json":
                  {"schema": {"type": "object", "required": ["name"], "properties":
                    {"name": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,62}$"}}}}}}},
                "get": {"x-fuzz-auth": "admin"}},
              "/admin/merchants/{merchant}": {
                "patch": {"x-fuzz-auth": "admin", "parameters": [{"name": "merchant", "in": "path", "required": true}],
                  "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
                    "required": ["api_version"], "properties": {"api_version": {"type": "string",
                    "enum": ["2026-03-13", "2026-03-15", "2026-03-16", "2026-06-01"]}}}}}}}},
              "/admin/merchants/{merchant}/keys": {
                "post": {"x-fuzz-auth": "admin", "parameters": [{"name": "merchant", "in": "path", "required": true}],
                  "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
                    "required": ["kind"], "properties": {"kind": {"type": "string", "enum": ["sk_test", "pk_test", "sk_live", "pk_live"]}}}}}}},
                "get": {"x-fuzz-auth": "admin", "parameters": [{"name": "merchant", "in": "path", "required": true}]}},
              "/admin/merchants/{merchant}/users": {
                "post": {"x-fuzz-auth": "admin", "parameters": [{"name": "merchant", "in": "path", "required": true}],
                  "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
                    "required": ["email", "role"], "properties": {"email": {"type": "string", "format": "email",
                    "maxLength": 254}, "role": {"type": "string", "enum": ["owner", "developer", "viewer"]}}}}}}}},
              "/admin/keys/{keyId}/revoke": {
                "post": {"x-fuzz-auth": "admin", "parameters": [{"name": "keyId", "in": "path", "required": true}]}},
              "/problems/{code}": {
                "get": {"parameters": [{"name": "code", "in": "path", "required": true}]}}
            }}""";

    private static final String CHECKOUT_PAGES = "the hosted checkout's HTML pages and form posts for customers' browsers, "
            + "not the JSON API; their bad inputs (unknown ids, forged or stale tokens, bad card fields, floods) are "
            + "checkout.CheckoutProtectionIT's and PaymentFormTest's";

    private static final String PAYMENT_PAGES = "a payment page's public HTML page and its form post for payers' browsers, "
            + "not the JSON API; their bad inputs (unknown or closed pages, forged or stale tokens, bad form fields, "
            + "floods) are paymentpage.PaymentPageVisitsIT's and RateLimitsIT's";

    private static final String DASHBOARD_PAGES = "the merchant dashboard's HTML pages and form posts for people's "
            + "browsers, not the JSON API; their bad inputs (missing or forged CSRF tokens, unknown or used links, short "
            + "passwords, wrong credentials, roles, floods, filters that cannot match, other merchants' ids, bad amounts, missing keys) are "
            + "the dashboard package's tests (DashboardSignInIT, DashboardBoundariesIT and one per section). Every handler "
            + "under /dashboard is one of them (springdoc hides them all), so they are excluded by that prefix";

    /** Handler mappings the fuzzer does not call, each with the reason (also in docs/testing.md). */
    private static final Map<String, String> EXCLUDED = Map.ofEntries(
            Map.entry("* /error", "the servlet container's forward target for its own errors; every malformed request above "
                    + "reaches it, and it is not a URL of the API"),
            Map.entry("GET /test-only/failure", "a test-only endpoint that fails on purpose (api.ErrorsIT)"),
            Map.entry("GET /openapi.json", "springdoc's document, read by this test; it takes no input"),
            Map.entry("GET /openapi.json/swagger-config", "springdoc's Swagger UI configuration; it takes no input"),
            Map.entry("GET /openapi.json.yaml", "springdoc's document as YAML; it takes no input"),
            Map.entry("GET /docs", "springdoc's redirect to Swagger UI; it takes no input"),
            Map.entry("GET /checkout/{id}", CHECKOUT_PAGES),
            Map.entry("GET /checkout/{id}/action", CHECKOUT_PAGES),
            Map.entry("GET /checkout/{id}/status", CHECKOUT_PAGES),
            Map.entry("POST /checkout/{id}/action", CHECKOUT_PAGES),
            Map.entry("POST /checkout/{id}/cancel", CHECKOUT_PAGES),
            Map.entry("POST /checkout/{id}/pay", CHECKOUT_PAGES),
            Map.entry("GET /checkout/{id}/return", CHECKOUT_PAGES),
            Map.entry("GET /pages/{id}", PAYMENT_PAGES),
            Map.entry("POST /pages/{id}", PAYMENT_PAGES),
            Map.entry("GET /", "the service's root page, where a return_url on the service itself lands: HTML for a "
                    + "customer's browser, no key, no body; checkout.ReturnLandingIT asserts it shows back only a "
                    + "well-formed session id and a known outcome"));

    private record Operation(String method, String path, JsonNode spec, boolean admin) {
        String label() {
            return method + " " + path;
        }
    }

    /** One answer that broke the oracle. */
    private record Failure(String operation, String mutation, String request, int status, String contentType,
                           String body) {
        @Override
        public String toString() {
            return operation + " | " + mutation + "\n    -> " + status + " " + contentType + " "
                    + FuzzRequest.cut(FuzzRequest.printable(body), 300) + "\n    request: " + request;
        }
    }

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    private RequestMappingHandlerMapping handlerMappings;

    @Autowired
    private Checkout checkout;

    private final String nonce = UUID.randomUUID().toString().substring(0, 8);
    private JsonNode document;

    @BeforeEach
    void document() {
        document = ValidRequests.document(anonymous());
        ObjectNode paths = (ObjectNode) document.get("paths");
        Api.JSON.readTree(NOT_IN_THE_DOCUMENT).get("paths").properties().forEach(p -> {
            assertThat(paths.has(p.getKey())).as(p.getKey() + " is documented now: drop it from NOT_IN_THE_DOCUMENT")
                    .isFalse();
            paths.set(p.getKey(), p.getValue());
        });
    }

    private List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            if (Set.of("get", "post", "put", "patch", "delete").contains(op.getKey())) {
                operations.add(new Operation(op.getKey().toUpperCase(Locale.ROOT), path.getKey(), op.getValue(),
                        op.getValue().path("x-fuzz-auth").stringValue("").equals("admin")));
            }
        }));
        return operations;
    }

    @Test
    void everyHandlerIsInTheDocumentOrFuzzedBesideItOrExcludedWithAReason() {
        Set<String> fuzzed = new TreeSet<>();
        operations().forEach(op -> fuzzed.add(op.label()));
        Set<String> unaccounted = new TreeSet<>();
        Set<String> mapped = new TreeSet<>();
        for (RequestMappingInfo info : handlerMappings.getHandlerMethods().keySet()) {
            Set<String> methods = new TreeSet<>();
            info.getMethodsCondition().getMethods().forEach(m -> methods.add(m.name()));
            if (methods.isEmpty()) {
                methods.add("*");
            }
            for (String pattern : info.getPatternValues()) {
                for (String method : methods) {
                    String label = method + " " + pattern;
                    mapped.add(label);
                    if (!fuzzed.contains(label) && !EXCLUDED.containsKey(label) && !pattern.startsWith("/dashboard")) {
                        unaccounted.add(label);
                    }
                }
            }
        }
        assertThat(unaccounted).as("handlers neither fuzzed nor excluded with a reason").isEmpty();
        assertThat(mapped).as("every exclusion names a handler that exists").containsAll(EXCLUDED.keySet());
        assertThat(fuzzed).as("the fuzzer covers the published API and the operators' API").contains(
                "POST /collect/redemptions", "POST /collect/redemptions/{id}/confirm", "POST /stored_value/lookup",
                "POST /billing/bills", "POST /billing/test_helpers/payments", "POST /webhook_endpoints",
                "POST /events/{id}/redeliver", "GET /events", "POST /admin/merchants", "POST /admin/keys/{keyId}/revoke",
                "POST /admin/merchants/{merchant}/users", "PATCH /admin/merchants/{merchant}");
    }

    @Test
    void noMutationOfAnyOperationIsAServerErrorAndEveryClientErrorIsAProblem() throws Exception {
        long started = System.nanoTime();
        List<Operation> operations = operations().stream().filter(op -> op.label().contains(ONLY)).toList();
        // Operations are independent (each has objects of its own), so a few run at once; each one's mutations run
        // in order, and the report follows the document's order, so a seed gives the same report.
        List<Future<Outcome>> outcomes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            for (int i = 0; i < operations.size(); i++) {
                Operation operation = operations.get(i);
                String unique = nonce + Integer.toString(i, 36);
                outcomes.add(pool.submit(() -> fuzz(operation, unique)));
            }
        }
        List<Failure> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        int sent = 0;
        for (Future<Outcome> future : outcomes) {
            Outcome outcome = future.get();
            failures.addAll(outcome.failures());
            sent += outcome.sent();
            table.append("  ").append(outcome.operation()).append(' ').append(outcome.statuses()).append('\n');
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(Locale.ROOT, "OpenApiFuzzIT: seed %d, at most %d mutations per operation, %d requests to %d "
                        + "operations in %.1f s%s%n%s%n", SEED, CAP, sent, operations.size(), seconds,
                SKIP.isEmpty() ? "" : ", skipping " + SKIP, table);
        if (!failures.isEmpty()) {
            StringBuilder report = new StringBuilder();
            report.append(failures.size()).append(" answers broke the oracle (no 5xx; every 4xx a problem+json with a ")
                    .append("string code). Reproduce with -Dtender.fuzz.seed=").append(SEED)
                    .append(" -Dtender.fuzz.mutations=").append(CAP).append(" (and -Dtender.fuzz.operations=")
                    .append("'<METHOD /path>' for one operation).\n");
            failures.forEach(f -> report.append(f).append('\n'));
            System.out.println(report);
            fail(report.toString());
        }
    }

    /** What fuzzing one operation found: its failures, how many requests it sent, and its answers by status class. */
    private record Outcome(String operation, List<Failure> failures, int sent, Map<String, Integer> statuses) {
    }

    /** Sends the valid request and the picked mutations of one operation. */
    private Outcome fuzz(Operation operation, String unique) {
        List<Failure> failures = new ArrayList<>();
        Map<String, Integer> histogram = new TreeMap<>();
        // A merchant of its own per operation: the valid creates of one operation (16 webhook endpoints at most per
        // merchant and mode) must not use up what another operation's fixtures need.
        Merchant merchant = merchants.create();
        ValidRequests.Fixtures fixtures = new ValidRequests.Fixtures(merchants, merchant, checkout, nonce);
        Map<String, String> pathIds = new LinkedHashMap<>();
        for (JsonNode parameter : operation.spec().path("parameters")) {
            if (parameter.path("in").stringValue("").equals("path")) {
                String name = parameter.get("name").stringValue();
                pathIds.put(name, fixtures.id(ValidRequests.kindOfPathParameter(operation.path(), name)));
            }
        }
        SchemaExamples examples = fixtures.examples(document, unique);
        JsonNode bodySchema = operation.spec().path("requestBody").path("content").path("application/json").get("schema");
        JsonNode validBody = ValidRequests.validBody(operation.label(), examples, bodySchema);
        String path = FuzzMutations.path(operation.path(), pathIds);
        Supplier<FuzzRequest> base = () -> {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Authorization", "Bearer " + (operation.admin() ? ADMIN_TOKEN : merchant.test().key()));
            if (Set.of("POST", "PATCH").contains(operation.method()) && !operation.admin()) {
                headers.put("Idempotency-Key", "fuzz-" + unique + "-" + UUID.randomUUID());
            }
            if (validBody != null) {
                headers.put("Content-Type", "application/json");
            }
            return new FuzzRequest(operation.method(), path, List.of(), headers,
                    validBody == null ? null : FuzzMutations.utf8(Api.JSON.writeValueAsString(validBody)));
        };

        int sent = 1;
        FuzzRequest valid = base.get();
        RawHttp.Response answer = send(valid);
        count(histogram, answer);
        if (answer == null || answer.status() < 200 || answer.status() > 299) {
            failures.add(failure(operation, "the valid request (must be 2xx, or the fuzzer never reaches the handler)",
                    valid, answer));
        } else {
            check(operation, "the valid request", valid, answer, failures);
        }

        // The JsonNode pseudo-schema declares no real properties; its bean properties (empty, array, ...) are no fields.
        boolean pseudo = bodySchema != null && ValidRequests.JSON_NODE_SCHEMA.equals(bodySchema.path("$ref").stringValue(""));
        FuzzMutations catalogue = new FuzzMutations(examples, operation.path(), pathIds, operation.spec(),
                pseudo ? null : bodySchema, validBody);
        Random random = new Random(SEED ^ operation.label().hashCode());
        for (FuzzMutations.Mutation mutation : catalogue.pick(random, CAP, m -> skipped(operation, m))) {
            FuzzRequest request = mutation.apply().apply(base.get());
            RawHttp.Response response = send(request);
            count(histogram, response);
            check(operation, mutation.label(), request, response, failures);
            sent++;
        }
        return new Outcome(operation.label(), failures, sent, histogram);
    }

    private static boolean skipped(Operation operation, FuzzMutations.Mutation mutation) {
        String label = operation.label() + " " + mutation.label();
        return SKIP.stream().anyMatch(s -> s.equals(mutation.family()) || label.contains(s));
    }

    private RawHttp.Response send(FuzzRequest request) {
        try {
            return request.send(port);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static void count(Map<String, Integer> histogram, RawHttp.Response response) {
        String bucket = response == null ? "none" : (response.status() / 100) + "xx";
        histogram.merge(bucket, 1, Integer::sum);
    }

    /** The oracle: an answer, below 500, and every 4xx a problem+json with a string code and its own status. */
    private static void check(Operation operation, String mutation, FuzzRequest request, RawHttp.Response response,
                              List<Failure> failures) {
        if (response == null || response.status() >= 500) {
            failures.add(failure(operation, mutation, request, response));
            return;
        }
        if (response.status() < 400) {
            return;
        }
        String contentType = String.valueOf(response.header("Content-Type"));
        boolean problem = contentType.startsWith("application/problem+json");
        if (problem) {
            try {
                JsonNode body = Api.JSON.readTree(response.body());
                problem = body.path("code").isString() && !body.get("code").stringValue().isBlank()
                        && body.path("status").intValue() == response.status();
            } catch (RuntimeException e) {
                problem = false;
            }
        }
        if (!problem) {
            failures.add(failure(operation, mutation, request, response));
        }
    }

    private static Failure failure(Operation operation, String mutation, FuzzRequest request, RawHttp.Response response) {
        return response == null
                ? new Failure(operation.label(), mutation, request.describe(), -1, "", "(no HTTP answer)")
                : new Failure(operation.label(), mutation, request.describe(), response.status(),
                String.valueOf(response.header("Content-Type")), new String(response.body(), StandardCharsets.UTF_8));
    }

}
