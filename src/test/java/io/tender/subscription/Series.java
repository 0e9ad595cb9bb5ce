package io.tender.subscription;

import io.tender.payment.Collect;
import io.tender.checkout.Checkout;
import io.tender.support.Api;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The series calls the tests make again and again: a customer, a {@code first_in_series} session paid by card through
 * the checkout, and the mandate (and subscription) its success created.
 */
final class Series {

    final Api api;
    final Collect collect;

    Series(Api api, Checkout checkout) {
        this.api = api;
        this.collect = new Collect(api, checkout);
    }

    /** A new billing customer of the merchant; its {@code bcus_} id. */
    String customer() {
        return Collect.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-"
                + java.util.UUID.randomUUID() + "\",\"name\":\"Grace Hopper\",\"email\":\"grace@example.com\"}")
                .send()).get("id").stringValue();
    }

    /** A first_in_series session for {@code customer} with {@code options} (the members of {@code options}). */
    JsonNode firstSession(String customer, long amount, String options) {
        return collect.session("\"type\":\"first_in_series\",\"amount\":" + amount + ",\"currency\":\"ZAR\","
                + "\"customer\":\"" + customer + "\",\"options\":{" + options + "}");
    }

    /** Pays the session by {@code card}; expects it to succeed and returns the session as it now is. */
    JsonNode pay(JsonNode session, String card) {
        Checkout.Attempt attempt = collect.payByCard(session, card);
        assertThat(attempt.status()).as(attempt.toString()).isEqualTo("succeeded");
        return collect.refreshed(session);
    }

    /** A customer's paid first_in_series session with {@code options}: its mandate. */
    JsonNode mandate(String customer, long amount, String options, String card) {
        JsonNode paid = pay(firstSession(customer, amount, options), card);
        return collect.get("/collect/mandates/" + paid.get("mandate_id").stringValue());
    }

    /** A customer's paid subscription: its {@code subscription_options} members; the subscription. */
    JsonNode subscription(String customer, long amount, String subscriptionOptions, String card) {
        JsonNode paid = pay(firstSession(customer, amount, "\"subscription_options\":{" + subscriptionOptions + "}"),
                card);
        return collect.get("/collect/subscriptions/" + paid.get("subscription_id").stringValue());
    }

    /** A next_in_series charge: the members after the type; the response as it is. */
    Api.Response charge(String members) {
        return api.post("/collect/payment_sessions", "{\"type\":\"next_in_series\"," + members + "}").send();
    }

    /** A subscription's periods as stored: number, date and status, in order. */
    static List<Map<String, Object>> periods(JdbcClient jdbc, String subscriptionId) {
        return jdbc.sql("select period, charge_date, status from subscription_periods where subscription_id = ?"
                        + " order by period").param(subscriptionId)
                .query((rs, i) -> period(rs.getInt("period"), rs.getDate("charge_date").toLocalDate(),
                        rs.getString("status")))
                .list();
    }

    /**
     * The periods of a monthly subscription first paid on {@code firstPayment} whose first {@code paid} months were
     * paid, each on its own date: those, and the next one scheduled a month after the last.
     */
    static List<Map<String, Object>> paidMonthly(LocalDate firstPayment, int paid) {
        List<Map<String, Object>> periods = new ArrayList<>();
        for (int month = 1; month <= paid + 1; month++) {
            periods.add(period(month, firstPayment.plusMonths(month), month <= paid ? "paid" : "scheduled"));
        }
        return periods;
    }

    private static Map<String, Object> period(int number, LocalDate date, String status) {
        return Map.of("period", number, "charge_date", date.toString(), "status", status);
    }
}
