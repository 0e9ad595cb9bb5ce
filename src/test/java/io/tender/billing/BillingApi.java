package io.tender.billing;

import io.tender.support.Api;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Billing calls the tests make again and again, over real HTTP, and the outbox rows they leave. */
final class BillingApi {

    final Api api;

    BillingApi(Api api) {
        this.api = api;
    }

    /** POSTs and expects 201. */
    JsonNode create(String path, String body) {
        return expect(201, api.post(path, body).send());
    }

    JsonNode get(String path) {
        return expect(200, api.get(path).send());
    }

    JsonNode patch(String path, String body) {
        return expect(200, api.patch(path, body).send());
    }

    /** A customer with the required fields and whatever else {@code extra} adds (JSON members, without braces). */
    JsonNode customer(String reference, String extra) {
        return create("/billing/customers", "{\"external_reference\":\"" + reference + "\",\"name\":\"Ada Lovelace\","
                + "\"email\":\"ada@example.com\"" + (extra.isEmpty() ? "" : "," + extra) + "}");
    }

    JsonNode account(String customer, String reference, String extra) {
        return create("/billing/accounts", "{\"customer\":\"" + customer + "\",\"external_reference\":\"" + reference
                + "\",\"name\":\"Main account\"" + (extra.isEmpty() ? "" : "," + extra) + "}");
    }

    /** A ZAR bill due on 2030-01-31, raised against a customer ({@code customer}) or an account ({@code account}). */
    JsonNode bill(String field, String owner, String reference, long amountDue, String extra) {
        return create("/billing/bills", "{\"" + field + "\":\"" + owner + "\",\"external_reference\":\"" + reference
                + "\",\"currency\":\"ZAR\",\"amount_due\":" + amountDue + ",\"due_date\":\"2030-01-31\""
                + (extra.isEmpty() ? "" : "," + extra) + "}");
    }

    /** A test-helper payment against {@code field} (bill, account or customer); the raw response. */
    Api.Response pay(String field, String target, long amount, String currency) {
        return api.post("/billing/test_helpers/payments", "{\"" + field + "\":\"" + target + "\",\"amount\":" + amount
                + ",\"currency\":\"" + currency + "\"}").send();
    }

    static JsonNode expect(int status, Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        return response.json();
    }

    /** Asserts a problem response with this status and code, and returns it. */
    static JsonNode problem(Api.Response response, int status, String code) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("code").stringValue()).isEqualTo(code);
        return problem;
    }

    /** The fields named by a 400's {@code errors}. */
    static List<String> errorFields(Api.Response response) {
        JsonNode problem = problem(response, 400, "bad_request");
        return problem.get("errors").valueStream().map(e -> e.get("field").stringValue()).toList();
    }

    /** The CloudEvents in the outbox for one obligation, oldest first. */
    static List<JsonNode> events(JdbcClient jdbc, String obligationId) {
        return jdbc.sql("select payload::text from outbox where aggregateid = ? order by created_at, id")
                .params(obligationId).query(String.class).list().stream().map(Api.JSON::readTree).toList();
    }
}
