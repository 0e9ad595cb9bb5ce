package io.tender.payment;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import tools.jackson.databind.JsonNode;

import java.time.YearMonth;

import static org.assertj.core.api.Assertions.assertThat;

/** Collect calls the tests make again and again: sessions over real HTTP, attempts through the checkout's API. */
public final class Collect {

    public static final int EXP_YEAR = YearMonth.now().getYear() + 2;

    public final Api api;
    public final Checkout checkout;

    public Collect(Api api, Checkout checkout) {
        this.api = api;
        this.checkout = checkout;
    }

    public static JsonNode expect(int status, Api.Response response) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        return response.json();
    }

    /** A session of {@code members} (JSON members without braces); expects 201. */
    public JsonNode session(String members) {
        return expect(201, api.post("/collect/payment_sessions", "{" + members + "}").send());
    }

    public JsonNode session(long amount) {
        return session("\"amount\":" + amount + ",\"currency\":\"ZAR\"");
    }

    /** A session taking manual capture of cards. */
    public JsonNode manualSession(long amount) {
        return session("\"amount\":" + amount + ",\"currency\":\"ZAR\",\"options\":{\"payment_method_options\":"
                + "{\"card\":{\"capture_method\":\"manual\"}}}");
    }

    public JsonNode get(String path) {
        return expect(200, api.get(path).send());
    }

    public Checkout.Attempt payByCard(JsonNode session, String number) {
        return checkout.payByCard(session.get("checkout_session_id").stringValue(), number, 12, EXP_YEAR, "123");
    }

    public JsonNode payment(Checkout.Attempt attempt) {
        return get("/collect/payments/" + attempt.paymentId());
    }

    public JsonNode refreshed(JsonNode session) {
        return get("/collect/payment_sessions/" + session.get("id").stringValue());
    }
}
