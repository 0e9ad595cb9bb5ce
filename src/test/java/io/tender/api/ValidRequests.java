package io.tender.api;

import io.tender.checkout.Checkout;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
import io.tender.support.Merchants;
import io.tender.support.Merchants.Merchant;
import io.tender.support.Vouchers;
import tools.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The valid request of every operation of /openapi.json, as the tests driven by the document build it
 * ({@link OpenApiFuzzIT}, {@link SchemaAgreementIT}): the objects its path and body name (real ones of one merchant,
 * made on first use), and a body built from its schema, except where the schema cannot say what is valid.
 */
final class ValidRequests {

    private ValidRequests() {
    }

    /** The service's /openapi.json. */
    static JsonNode document(Api anonymous) {
        var response = anonymous.get("/openapi.json").send();
        assertThat(response.status()).isEqualTo(200);
        return response.json();
    }

    /**
     * Valid bodies the schema cannot express, by operation, each with the reason. Everything else is built from the
     * schema.
     */
    static final Map<String, Seed> SEED_BODIES = Map.of(
            "POST /collect/redemptions", new Seed("the shape of source depends on type, and a PIN must be a fresh "
                    + "sandbox voucher (single use; its last digits choose the sandbox's answer)",
                    () -> Vouchers.oneVoucher(Vouchers.validPin())),
            "POST /stored_value/lookup", new Seed("source is a free-form map in the schema; its fields depend on type, "
                    + "and only some types have lookups (provider_c does)",
                    () -> Vouchers.providerC(Vouchers.token("1117"))));

    /**
     * Optional properties the valid request needs, by operation, each with the reason: rules across properties that
     * the schema states only in words.
     */
    static final Map<String, Include> ALSO_INCLUDE = Map.of(
            "POST /billing/bills", new Include("account is required unless customer is given", Set.of("account")),
            "POST /billing/test_helpers/payments", new Include("exactly one of bill, account or customer", Set.of("bill")),
            "POST /collect/payment_sessions", new Include("amount may be left out only for a bill or account session "
                    + "(it then defaults to what is owed), and currency goes with it", Set.of("amount", "currency")),
            "POST /collect/payment_requests", new Include("amount may be left out only for a bill or account request "
                    + "(it then defaults to what is owed), and currency goes with it", Set.of("amount", "currency")),
            "POST /collect/payment_pages", new Include("a page takes exactly one of amount (fixed) or amount_options "
                    + "(the payer chooses)", Set.of("amount")));

    /** Body schemas that are no request shape: springdoc's reading of Jackson's JsonNode class. Valid body {}. */
    static final String JSON_NODE_SCHEMA = "#/components/schemas/JsonNode";

    /** The kind of object a collection's path parameter or a body property names. */
    static final Map<String, String> KINDS = Map.ofEntries(
            Map.entry("customers", "customer"), Map.entry("customer", "customer"),
            Map.entry("accounts", "account"), Map.entry("account", "account"),
            Map.entry("bills", "bill"), Map.entry("bill", "bill"),
            Map.entry("payments", "payment"), Map.entry("payment_sessions", "payment_session"),
            Map.entry("payment_requests", "payment_request"),
            Map.entry("payment_methods", "payment_method"), Map.entry("payment_pages", "payment_page"),
            Map.entry("redemptions", "redemption"), Map.entry("refunds", "refund"),
            Map.entry("mandates", "mandate"), Map.entry("subscriptions", "subscription"),
            Map.entry("webhook_endpoints", "webhook_endpoint"), Map.entry("webhook_endpoint", "webhook_endpoint"),
            Map.entry("events", "event"),
            Map.entry("merchants", "merchant"), Map.entry("keys", "key"),
            Map.entry("problems", "problem"));

    record Seed(String reason, Supplier<String> value) {
    }

    record Include(String reason, Set<String> properties) {
    }

    /** The valid body of the operation {@code label} ({@code METHOD /path}), or null when it takes none. */
    static JsonNode validBody(String label, SchemaExamples examples, JsonNode bodySchema) {
        Seed seed = SEED_BODIES.get(label);
        if (seed != null) {
            return Api.JSON.readTree(seed.value().get());
        }
        if (bodySchema == null) {
            return null;
        }
        if (JSON_NODE_SCHEMA.equals(bodySchema.path("$ref").stringValue(""))) {
            return Api.JSON.createObjectNode();
        }
        Include include = ALSO_INCLUDE.get(label);
        return examples.valid(bodySchema, null, include == null ? Set.of() : include.properties());
    }

    static String kindOfPathParameter(String path, String name) {
        String[] segments = path.split("/");
        for (int i = 1; i < segments.length; i++) {
            if (segments[i].equals("{" + name + "}")) {
                String kind = KINDS.get(segments[i - 1]);
                // A capture or void needs a manual authorization, a refund captured money; complete needs a merchant-selection session waiting
                // after a declined attempt. Anything else on these objects takes the plain fixture.
                if (path.endsWith("/captures") || path.endsWith("/voids")) {
                    kind = "authorized_payment";
                } else if (path.endsWith("/refunds")) {
                    kind = "captured_payment";
                } else if (path.endsWith("/complete")) {
                    kind = "waiting_session";
                } else if (path.endsWith("/resume")) {
                    kind = "unpaid_subscription";
                }
                if (kind == null) {
                    throw new IllegalStateException("no fixture for {" + name + "} in " + path + ": add one to KINDS");
                }
                return kind;
            }
        }
        throw new IllegalStateException("{" + name + "} is not in " + path);
    }

    /** Real objects of the fuzz merchant, made on first use, fresh for each operation (confirm, void, delete spend them). */
    static final class Fixtures {

        private final Merchants merchants;
        private final Merchant merchant;
        private final Checkout checkout;
        private final String nonce;
        private final Map<String, String> made = new HashMap<>();
        private int counter;

        Fixtures(Merchants merchants, Merchant merchant, Checkout checkout, String nonce) {
            this.merchants = merchants;
            this.merchant = merchant;
            this.checkout = checkout;
            this.nonce = nonce;
        }

        /** Schema examples whose properties that name another object take a real one of this merchant's. */
        SchemaExamples examples(JsonNode document, String unique) {
            return new SchemaExamples(document, name -> KINDS.containsKey(name)
                    && !Set.of("payment", "redemption", "event", "merchant", "key", "problem").contains(KINDS.get(name))
                    ? id(KINDS.get(name)) : null, unique);
        }

        String id(String kind) {
            String id = made.get(kind);
            if (id == null) {
                id = create(kind);
                made.put(kind, id);
            }
            return id;
        }

        private String create(String kind) {
            Api api = merchant.test();
            String reference = "fx-" + nonce + "-" + (++counter) + "-" + UUID.randomUUID().toString().substring(0, 8);
            return switch (kind) {
                case "customer" -> created(api.post("/billing/customers", "{\"external_reference\":\"" + reference
                        + "\",\"name\":\"Fuzz\",\"email\":\"fuzz@example.com\"}").send(), 201);
                case "account" -> created(api.post("/billing/accounts", "{\"customer\":\"" + id("customer")
                        + "\",\"external_reference\":\"" + reference + "\",\"name\":\"Fuzz\"}").send(), 201);
                case "bill" -> created(api.post("/billing/bills", "{\"account\":\"" + id("account")
                        + "\",\"external_reference\":\"" + reference + "\",\"currency\":\"ZAR\",\"amount_due\":100000,"
                        + "\"due_date\":\"2030-01-31\"}").send(), 201);
                case "payment" -> created(api.post("/billing/test_helpers/payments", "{\"bill\":\"" + id("bill")
                        + "\",\"amount\":100,\"currency\":\"ZAR\"}").send(), 201);
                case "redemption" -> {
                    var response = api.post("/collect/redemptions", "{\"type\":\"vouchers.provider_c\",\"source\":"
                            + "{\"token\":\"" + Vouchers.token("1117") + "\"}}").send();
                    assertThat(response.json().get("status").stringValue()).as(response.toString()).isEqualTo("reserved");
                    yield created(response, 201);
                }
                case "payment_session" -> created(api.post("/collect/payment_sessions",
                        "{\"amount\":1500,\"currency\":\"ZAR\"}").send(), 201);
                case "payment_request" -> created(api.post("/collect/payment_requests",
                        "{\"amount\":1500,\"currency\":\"ZAR\"}").send(), 201);
                case "authorized_payment" -> {
                    var session = api.post("/collect/payment_sessions", "{\"amount\":1500,\"currency\":\"ZAR\","
                            + "\"options\":{\"payment_method_options\":{\"card\":{\"capture_method\":\"manual\"}}}}").send();
                    assertThat(session.status()).as(session.toString()).isEqualTo(201);
                    yield pay(session, "4242424242424242").paymentId();
                }
                case "captured_payment" -> {
                    var session = api.post("/collect/payment_sessions", "{\"amount\":150000,\"currency\":\"ZAR\"}")
                            .send();
                    assertThat(session.status()).as(session.toString()).isEqualTo(201);
                    yield pay(session, "4242424242424242").paymentId();
                }
                case "refund" -> created(api.post("/collect/payments/" + id("captured_payment") + "/refunds",
                        "{\"amount\":100}").send(), 201);
                case "payment_method" -> {
                    var session = api.post("/collect/payment_sessions", "{\"amount\":0,\"currency\":\"ZAR\"}").send();
                    assertThat(session.status()).as(session.toString()).isEqualTo(201);
                    assertThat(pay(session, "4242424242424242").status()).isEqualTo("succeeded");
                    var verified = api.get("/collect/payment_sessions/" + session.json().get("id").stringValue()).send();
                    yield verified.json().get("payment_method_id").stringValue();
                }
                case "waiting_session" -> {
                    var session = api.post("/collect/payment_sessions", "{\"amount\":1500,\"currency\":\"ZAR\","
                            + "\"options\":{\"checkout_options\":{\"return_url\":\"https://shop.example/back\","
                            + "\"payment_method_selection\":\"merchant\",\"selected_payment_method\":\"card\"}}}").send();
                    assertThat(session.status()).as(session.toString()).isEqualTo(201);
                    assertThat(pay(session, "4000000000000002").status()).isEqualTo("failed");
                    yield session.json().get("id").stringValue();
                }
                case "mandate" -> seriesPaid(api, "\"mandate_options\":{\"type\":\"on_demand\",\"amount\":"
                        + "{\"type\":\"variable\",\"min\":100,\"max\":50000},\"start_date\":\""
                        + java.time.LocalDate.now(java.time.ZoneId.of("Africa/Johannesburg")) + "\"}", "4242424242424242",
                        "mandate_id");
                case "subscription" -> seriesPaid(api, "\"subscription_options\":{\"interval\":\"monthly\"}",
                        "4242424242424242", "subscription_id");
                case "unpaid_subscription" -> {
                    // Its card's later charges are declined for good: a month on its test clock leaves it unpaid.
                    String id = seriesPaid(api, "\"subscription_options\":{\"interval\":\"monthly\"}",
                            SandboxProcessor.LATER_DECLINED, "subscription_id");
                    var advanced = api.post("/collect/test_helpers/subscriptions/" + id + "/advance", "{\"to\":\""
                            + java.time.LocalDate.now(java.time.ZoneId.of("Africa/Johannesburg")).plusMonths(1)
                            + "\"}").send();
                    assertThat(advanced.json().get("status").stringValue()).as(advanced.toString()).isEqualTo("unpaid");
                    yield id;
                }
                case "payment_page" -> created(api.post("/collect/payment_pages",
                        "{\"title\":\"Fuzz\",\"currency\":\"ZAR\",\"amount\":1500}").send(), 201);
                case "webhook_endpoint" -> created(api.post("/webhook_endpoints",
                        "{\"url\":\"http://127.0.0.1:9/fuzz\",\"enabled_events\":[\"*\"]}").send(), 201);
                case "event" -> {
                    id("webhook_endpoint");
                    created(api.post("/collect/redemptions", Vouchers.oneVoucher(Vouchers.validPin())).send(), 201);
                    var events = api.get("/events?limit=1").send();
                    assertThat(events.status()).as(events.toString()).isEqualTo(200);
                    yield events.json().get("data").get(0).get("id").stringValue();
                }
                case "merchant" -> merchant.name();
                case "key" -> created(merchants.admin().post("/admin/merchants/" + merchant.name() + "/keys",
                        "{\"kind\":\"sk_test\"}").send(), 201);
                case "problem" -> "bad_request";
                default -> throw new IllegalStateException("no fixture for " + kind);
            };
        }

        /** A first_in_series session of the fuzz customer with these options, paid: the id its success made. */
        private String seriesPaid(Api api, String options, String card, String made) {
            var session = api.post("/collect/payment_sessions", "{\"type\":\"first_in_series\",\"amount\":1500,"
                    + "\"currency\":\"ZAR\",\"customer\":\"" + id("customer") + "\",\"options\":{" + options + "}}")
                    .send();
            assertThat(session.status()).as(session.toString()).isEqualTo(201);
            assertThat(pay(session, card).status()).isEqualTo("succeeded");
            var paid = api.get("/collect/payment_sessions/" + session.json().get("id").stringValue()).send();
            return paid.json().get(made).stringValue();
        }

        /** Pays a session in the checkout (as the hosted page does) with a sandbox card. */
        private Checkout.Attempt pay(Api.Response session, String card) {
            return checkout.payByCard(session.json().get("checkout_session_id").stringValue(), card, 12,
                    java.time.Year.now().getValue() + 2, "123");
        }

        private static String created(Api.Response response, int status) {
            assertThat(response.status()).as(response.toString()).isEqualTo(status);
            return response.json().get("id").stringValue();
        }
    }
}
