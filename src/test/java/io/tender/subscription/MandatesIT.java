package io.tender.subscription;

import io.tender.payment.PaymentEventsIT;
import io.tender.payment.Collect;
import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.Merchants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mandates over real HTTP (decisions §8): a {@code first_in_series} session states its terms and takes cards only;
 * every bad combination is a 400 naming its field with nothing created; the success saves the card and creates the
 * mandate with the customer's acceptance in one transaction; GET, list, schedule and cancel, for the mandate's own
 * merchant and mode only.
 */
class MandatesIT extends SeriesIntegrationTest {

    private static String onDemand(String limit) {
        return "\"mandate_options\":{\"type\":\"on_demand\",\"amount\":{\"type\":\"variable\",\"min\":100,\"max\":"
                + "50000},\"start_date\":\"" + today() + "\"" + (limit == null ? "" : ",\"period_limit\":" + limit) + "}";
    }

    @Test
    void aFirstInSeriesSessionTakesCardsOnlyAndEchoesItsTermsWithTheirDefaults() {
        JsonNode session = series.firstSession(customer, 9900, "\"mandate_options\":{\"type\":\"scheduled\","
                + "\"amount\":{\"type\":\"fixed\",\"value\":9900},\"day_of_month\":31,\"start_date\":\"2027-01-31\","
                + "\"period_limit\":{\"period\":\"month\",\"max_count\":1}}");

        assertThat(session.get("type").stringValue()).isEqualTo("first_in_series");
        assertThat(session.get("customer_id").stringValue()).isEqualTo(customer);
        JsonNode checkoutOptions = session.get("options").get("checkout_options");
        assertThat(checkoutOptions.get("visible_payment_methods").toString()).isEqualTo("[\"card\"]");
        assertThat(checkoutOptions.get("save_payment_method").stringValue()).isEqualTo("always");
        JsonNode terms = session.get("options").get("mandate_options");
        assertThat(terms.get("time_zone").stringValue()).isEqualTo("Africa/Johannesburg");
        assertThat(terms.get("period_limit").get("alignment").stringValue()).isEqualTo("calendar");
        assertThat(terms.get("day_of_month").intValue()).isEqualTo(31);
        assertThat(session.has("mandate_id")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no customer | {"type":"first_in_series","amount":9900,"currency":"ZAR","options":{"mandate_options":{"type":"on_demand","amount":{"type":"fixed","value":9900},"start_date":"2030-01-01"}}} | customer
            no terms | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER"} | options
            both terms | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"mandate_options":{"type":"on_demand","amount":{"type":"fixed","value":9900},"start_date":"2030-01-01"},"subscription_options":{"interval":"monthly"}}} | options.subscription_options
            terms on a one-time session | {"amount":9900,"currency":"ZAR","options":{"subscription_options":{"interval":"monthly"}}} | options.subscription_options
            another method | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"checkout_options":{"visible_payment_methods":["card","pay_by_bank"]},"subscription_options":{"interval":"monthly"}}} | options.checkout_options.visible_payment_methods
            card not saved | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"checkout_options":{"save_payment_method":"never"},"subscription_options":{"interval":"monthly"}}} | options.checkout_options.save_payment_method
            manual capture | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"payment_method_options":{"card":{"capture_method":"manual"}},"subscription_options":{"interval":"monthly"}}} | options.payment_method_options.card.capture_method
            start in the past | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"mandate_options":{"type":"on_demand","amount":{"type":"fixed","value":9900},"start_date":"2020-01-01"}}} | options.mandate_options.start_date
            subscription start in the past | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"subscription_options":{"interval":"monthly","start_date":"2020-01-01"}}} | options.subscription_options.start_date
            fixed amount not the first payment's | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","options":{"mandate_options":{"type":"on_demand","amount":{"type":"fixed","value":500},"start_date":"2030-01-01"}}} | options.mandate_options.amount.value
            a bill | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","bill":"bill-1","options":{"subscription_options":{"interval":"monthly"}}} | bill
            a saved method on a first payment | {"type":"first_in_series","amount":9900,"currency":"ZAR","customer":"CUSTOMER","payment_method_id":"pm_0123456789abcdef01234567","options":{"subscription_options":{"interval":"monthly"}}} | payment_method_id
            a charge without a customer | {"type":"next_in_series","amount":9900,"currency":"ZAR","mandate_id":"mdt_0123456789abcdef01234567"} | customer_id
            a charge of nothing | {"type":"next_in_series","amount":9900,"currency":"ZAR","customer_id":"CUSTOMER"} | payment_method_id
            a charge with options | {"type":"next_in_series","amount":9900,"currency":"ZAR","customer_id":"CUSTOMER","mandate_id":"mdt_0123456789abcdef01234567","options":{}} | options
            a charge with an expiry | {"type":"next_in_series","amount":9900,"currency":"ZAR","customer_id":"CUSTOMER","mandate_id":"mdt_0123456789abcdef01234567","expires_at":"2030-01-01T00:00:00.000Z"} | expires_at
            a charge of nothing at all | {"type":"next_in_series","amount":0,"currency":"ZAR","customer_id":"CUSTOMER","mandate_id":"mdt_0123456789abcdef01234567"} | amount
            a mandate that is no mandate id | {"type":"next_in_series","amount":100,"currency":"ZAR","customer_id":"CUSTOMER","mandate_id":"mandate-1"} | mandate_id
            """)
    void aBadSeriesSessionIsA400NamingItsFieldAndCreatesNothing(String what, String body, String field) {
        long before = sessionsOf(merchant);

        var response = api.post("/collect/payment_sessions", body.replace("CUSTOMER", customer)).send();

        assertBadRequest(response, field);
        assertThat(sessionsOf(merchant)).as("sessions of the merchant").isEqualTo(before);
    }

    private long sessionsOf(Merchants.Merchant m) {
        return jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(m.id())
                .query(Long.class).single();
    }

    @Test
    void aFirstInSeriesSessionForACustomerNobodyHasIs404() {
        String otherMerchantsCustomer = new Series(merchants.create().test(), checkout).customer();

        for (String unknown : List.of("bcus_0123456789abcdef01234567", otherMerchantsCustomer)) {
            var response = api.post("/collect/payment_sessions", "{\"type\":\"first_in_series\",\"amount\":9900,"
                    + "\"currency\":\"ZAR\",\"customer\":\"" + unknown + "\",\"options\":{" + onDemand(null) + "}}")
                    .send();
            assertProblem(response, 404, "resource_not_found");
        }
    }

    @Test
    void theFirstPaymentsSuccessSavesTheCardAndCreatesTheMandateWithTheCustomersAcceptance() {
        JsonNode session = series.firstSession(customer, 9900, onDemand("{\"period\":\"month\",\"max_amount\":60000}"));
        Checkout.Attempt attempt = checkout.payByCard(session.get("checkout_session_id").stringValue(),
                "4242424242424242", 12, Collect.EXP_YEAR, "123", new Checkout.Client("203.0.113.7", "Firefox/140"));
        assertThat(attempt.status()).isEqualTo("succeeded");

        JsonNode paid = series.collect.refreshed(session);
        assertThat(paid.get("status").stringValue()).isEqualTo("completed");
        String mandateId = paid.get("mandate_id").stringValue();
        assertThat(mandateId).matches("mdt_[a-f0-9]{24}");
        JsonNode mandate = series.collect.get("/collect/mandates/" + mandateId);
        assertThat(mandate.get("status").stringValue()).isEqualTo("active");
        assertThat(mandate.get("type").stringValue()).isEqualTo("on_demand");
        assertThat(mandate.get("customer_id").stringValue()).isEqualTo(customer);
        assertThat(mandate.get("payment_method_id").stringValue()).isEqualTo(paid.get("payment_method_id").stringValue());
        assertThat(mandate.get("payment_method_details").get("card").get("last4").stringValue()).isEqualTo("4242");
        assertThat(mandate.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(mandate.get("first_payment_id").stringValue()).isEqualTo(attempt.paymentId());
        assertThat(mandate.get("payments_count").intValue()).isEqualTo(1);
        assertThat(mandate.get("acceptance").get("ip_address").stringValue()).isEqualTo("203.0.113.7");
        assertThat(mandate.get("acceptance").get("user_agent").stringValue()).isEqualTo("Firefox/140");
        assertThat(mandate.get("acceptance").get("accepted_at").stringValue())
                .isLessThanOrEqualTo(mandate.get("created_at").stringValue());
        // The first payment is the first charge of its period.
        LocalDate today = LocalDate.now(JOHANNESBURG);
        assertThat(mandate.get("period_usage").toString()).isEqualTo("{\"period_start\":\"" + today.withDayOfMonth(1)
                + "\",\"period_end\":\"" + today.withDayOfMonth(today.lengthOfMonth())
                + "\",\"amount\":9900,\"count\":1}");
        assertThat(mandate.has("next_execution_date")).as("on_demand has no dates").isFalse();
        assertThat(mandate.get("options").get("amount").get("max").intValue()).isEqualTo(50000);

        JsonNode payment = series.collect.get("/collect/payments/" + attempt.paymentId());
        assertThat(payment.get("mandate_id").stringValue()).isEqualTo(mandateId);
        JsonNode method = series.collect.get("/collect/payment_methods/" + mandate.get("payment_method_id").stringValue());
        assertThat(method.get("customer_id").stringValue()).isEqualTo(customer);
        assertThat(method.toString()).doesNotContain("sbxtok_").doesNotContain("token");
        assertThat(PaymentEventsIT.types(jdbc, mandateId)).containsExactly("mandate.created");
        assertThat(PaymentEventsIT.events(jdbc, mandateId).getFirst().get("data").get("id").stringValue())
                .isEqualTo(mandateId);
        // The processor's token is sealed at rest, never stored as text.
        assertThat(jdbc.sql("select count(*) from payment_methods where id = ? and processor_token_sealed is not null"
                        + " and position('sbxtok_' in encode(processor_token_sealed, 'escape')) = 0")
                .param(mandate.get("payment_method_id").stringValue()).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void aDeclinedFirstPaymentCreatesNoMandateAndTheCustomerMayTryAnotherCard() {
        JsonNode session = series.firstSession(customer, 9900, onDemand(null));

        Checkout.Attempt declined = series.collect.payByCard(session, "4000000000000002");
        assertThat(declined.status()).isEqualTo("failed");
        JsonNode open = series.collect.refreshed(session);
        assertThat(open.get("status").stringValue()).isEqualTo("active");
        assertThat(open.has("mandate_id")).isFalse();
        assertThat(list("/collect/mandates?customer=" + customer)).isEmpty();

        JsonNode paid = series.pay(session, "5555555555554444");
        assertThat(list("/collect/mandates?customer=" + customer)).extracting(m -> m.get("id").stringValue())
                .containsExactly(paid.get("mandate_id").stringValue());
    }

    @Test
    void mandatesAreListedNewestFirstByCustomerAndStatusForTheirMerchantAndModeOnly() {
        String other = series.customer();
        JsonNode first = series.mandate(customer, 9900, onDemand(null), "4242424242424242");
        JsonNode second = series.mandate(customer, 9900, onDemand(null), "4242424242424242");
        JsonNode ofOther = series.mandate(other, 9900, onDemand(null), "4242424242424242");
        Collect.expect(200, api.post("/collect/mandates/" + first.get("id").stringValue() + "/cancel", null).send());

        assertThat(list("/collect/mandates?customer=" + customer)).extracting(m -> m.get("id").stringValue())
                .containsExactly(second.get("id").stringValue(), first.get("id").stringValue());
        assertThat(list("/collect/mandates?status=cancelled")).extracting(m -> m.get("id").stringValue())
                .containsExactly(first.get("id").stringValue());
        assertThat(list("/collect/mandates?status=active&customer=" + other)).extracting(m -> m.get("id").stringValue())
                .containsExactly(ofOther.get("id").stringValue());
        assertBadRequest(api.get("/collect/mandates?status=paused").send(), "status");
        assertBadRequest(api.get("/collect/mandates?customer=someone").send(), "customer");

        // Another merchant, and this merchant's live key, see none of them.
        String id = first.get("id").stringValue();
        for (Api stranger : List.of(merchants.create().test(), merchant.live())) {
            assertProblem(stranger.get("/collect/mandates/" + id).send(), 404, "resource_not_found");
            assertProblem(stranger.post("/collect/mandates/" + id + "/cancel", null).send(), 404, "resource_not_found");
            assertProblem(stranger.get("/collect/mandates/" + id + "/schedule").send(), 404, "resource_not_found");
            assertThat(Collect.expect(200, stranger.get("/collect/mandates").send()).get("data")).isEmpty();
        }
        assertProblem(api.get("/collect/mandates/mdt_0123456789abcdef01234567").send(), 404, "resource_not_found");
    }

    private List<JsonNode> list(String path) {
        List<JsonNode> rows = new ArrayList<>();
        series.collect.get(path).get("data").forEach(rows::add);
        return rows;
    }

    @Test
    void aCancelledMandateChargesNothingMoreAndIsCancelledOnce() {
        JsonNode mandate = series.mandate(customer, 9900, onDemand(null), "4242424242424242");
        String id = mandate.get("id").stringValue();

        JsonNode cancelled = Collect.expect(200, api.post("/collect/mandates/" + id + "/cancel", null)
                .idempotencyKey("cancel-" + id).send());
        assertThat(cancelled.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(cancelled.get("cancelled_at").stringValue()).isNotBlank();
        var replay = api.post("/collect/mandates/" + id + "/cancel", null).idempotencyKey("cancel-" + id).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.json()).isEqualTo(cancelled);
        assertProblem(api.post("/collect/mandates/" + id + "/cancel", null).send(), 409, "invalid_state_transition");
        assertBadRequest(api.post("/collect/mandates/" + id + "/cancel", "{\"reason\":\"x\"}").send(), "reason");

        var charge = series.charge("\"customer_id\":\"" + customer + "\",\"mandate_id\":\"" + id
                + "\",\"amount\":500,\"currency\":\"ZAR\"");
        JsonNode refused = assertProblem(charge, 422, "operation_not_allowed");
        assertThat(refused.get("detail").stringValue()).startsWith("Mandate not active");
        assertThat(PaymentEventsIT.types(jdbc, id)).containsExactly("mandate.created", "mandate.cancelled");
    }

    @Test
    void theScheduleShowsTheComingDatesTheirAmountsAndWhatThePeriodLimitAllows() {
        // Every Monday from a Monday in the future, at most two charges per calendar month.
        LocalDate monday = LocalDate.of(2031, 3, 3);
        JsonNode mandate = series.mandate(customer, 2500, "\"mandate_options\":{\"type\":\"scheduled\",\"amount\":"
                + "{\"type\":\"fixed\",\"value\":2500},\"day_of_week\":1,\"start_date\":\"" + monday + "\","
                + "\"period_limit\":{\"period\":\"month\",\"max_count\":2}}", "4242424242424242");
        String id = mandate.get("id").stringValue();
        assertThat(mandate.get("next_execution_date").stringValue()).isEqualTo(monday.toString());

        JsonNode schedule = series.collect.get("/collect/mandates/" + id + "/schedule?count=6");

        assertThat(schedule.get("data").toString()).isEqualTo("["
                + "{\"date\":\"2031-03-03\",\"amount\":2500,\"allowed\":true},"
                + "{\"date\":\"2031-03-10\",\"amount\":2500,\"allowed\":true},"
                + "{\"date\":\"2031-03-17\",\"amount\":2500,\"allowed\":false},"
                + "{\"date\":\"2031-03-24\",\"amount\":2500,\"allowed\":false},"
                + "{\"date\":\"2031-03-31\",\"amount\":2500,\"allowed\":false},"
                + "{\"date\":\"2031-04-07\",\"amount\":2500,\"allowed\":true}]");
        assertThat(series.collect.get("/collect/mandates/" + id + "/schedule").get("data")).hasSize(12);
        for (String count : List.of("0", "25", "two", "1.5")) {
            assertBadRequest(api.get("/collect/mandates/" + id + "/schedule?count=" + count).send(), "count");
        }
        assertBadRequest(api.get("/collect/mandates/" + id + "/schedule?from=2031-01-01").send(), "from");

        // A variable amount shows null, and an on-demand mandate has no dates at all.
        JsonNode variable = series.mandate(customer, 700, "\"mandate_options\":{\"type\":\"installment\",\"amount\":"
                + "{\"type\":\"variable\",\"min\":100,\"max\":900},\"day_of_month\":-1,\"installments\":2,"
                + "\"start_date\":\"2031-01-15\"}", "4242424242424242");
        assertThat(series.collect.get("/collect/mandates/" + variable.get("id").stringValue() + "/schedule")
                .get("data").toString()).isEqualTo("[{\"date\":\"2031-01-31\",\"amount\":null,\"allowed\":true},"
                + "{\"date\":\"2031-02-28\",\"amount\":null,\"allowed\":true}]");
        assertThat(variable.get("installments_remaining").intValue()).isEqualTo(2);
        JsonNode onDemand = series.mandate(customer, 700, onDemand(null), "4242424242424242");
        assertThat(series.collect.get("/collect/mandates/" + onDemand.get("id").stringValue() + "/schedule")
                .get("data")).isEmpty();
    }
}
