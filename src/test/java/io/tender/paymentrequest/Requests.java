package io.tender.paymentrequest;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.time.YearMonth;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the payment request tests do again and again: requests over real HTTP, payments through the checkout's API. */
final class Requests {

    static final int EXP_YEAR = YearMonth.now().getYear() + 2;

    final Api api;
    final Checkout checkout;

    Requests(Api api, Checkout checkout) {
        this.api = api;
        this.checkout = checkout;
    }

    static JsonNode expect(int status, Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        return response.json();
    }

    /** A request of {@code members} (JSON members without braces); expects 201. */
    JsonNode create(String members) {
        return expect(201, api.post("/collect/payment_requests", "{" + members + "}").send());
    }

    /** A ZAR link request. */
    JsonNode link(long amount) {
        return create("\"amount\":" + amount + ",\"currency\":\"ZAR\"");
    }

    /** A ZAR push request to this phone number. */
    JsonNode push(long amount, String phone) {
        return create("\"amount\":" + amount + ",\"currency\":\"ZAR\",\"type\":\"push\",\"push\":{\"provider\":\"capitec\","
                + "\"capitec\":{\"phone_number\":\"" + phone + "\"}}");
    }

    JsonNode get(JsonNode request) {
        return expect(200, api.get("/collect/payment_requests/" + id(request)).send());
    }

    Api.Response patch(JsonNode request, String body) {
        return api.patch("/collect/payment_requests/" + id(request), body).send();
    }

    Api.Response delete(JsonNode request) {
        return api.delete("/collect/payment_requests/" + id(request)).send();
    }

    /** Pays the request's link by card, as the hosted checkout does. */
    Checkout.Attempt payByCard(JsonNode request, String number) {
        return checkout.payByCard(checkoutId(request), number, 12, EXP_YEAR, "123");
    }

    static String id(JsonNode request) {
        return request.get("id").stringValue();
    }

    static String checkoutId(JsonNode request) {
        return request.get("link").get("checkout_session_id").stringValue();
    }

    /** The outbox events about an object, oldest first. */
    static List<JsonNode> events(JdbcClient jdbc, String aggregateId) {
        return jdbc.sql("select payload::text from outbox where aggregateid = ? order by created_at, id")
                .params(aggregateId).query(String.class).list().stream().map(Api.JSON::readTree).toList();
    }

    static List<String> types(JdbcClient jdbc, String aggregateId) {
        return events(jdbc, aggregateId).stream().map(e -> e.get("type").stringValue()).toList();
    }
}
