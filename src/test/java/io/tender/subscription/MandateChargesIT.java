package io.tender.subscription;

import io.tender.payment.PaymentEventsIT;
import io.tender.payment.Collect;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.Merchants;
import io.tender.support.SandboxHold;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Charges of a mandate without the customer over real HTTP ({@code next_in_series}, decisions §8): made at once with
 * the saved card, the 201 carrying the outcome; each refusal of §8 a 422 naming the rule with nothing sent to the
 * processor; one charge per Idempotency-Key; the period limit held under the mandate's lock when charges race; and the
 * sandbox's series cards (hard and soft declines, a card that needs the customer).
 */
class MandateChargesIT extends SeriesIntegrationTest {

    @Autowired
    private DataSource database;

    /** An on-demand mandate of 100 to 50 000 a charge, with {@code limit} (a period_limit object) or none. */
    private JsonNode onDemand(String card, String limit) {
        return series.mandate(customer, 9900, "\"mandate_options\":{\"type\":\"on_demand\",\"amount\":{\"type\":"
                + "\"variable\",\"min\":100,\"max\":50000},\"start_date\":\"" + today() + "\""
                + (limit == null ? "" : ",\"period_limit\":" + limit) + "}", card);
    }

    private Api.Response charge(JsonNode mandate, long amount) {
        return series.charge("\"customer_id\":\"" + customer + "\",\"mandate_id\":\"" + mandate.get("id").stringValue()
                + "\",\"amount\":" + amount + ",\"currency\":\"ZAR\"");
    }

    private long processorCalls() {
        return jdbc.sql("select count(*) from sandbox_processor_operations").query(Long.class).single();
    }

    @Test
    void aChargeOfTheSavedCardIsMadeAtOnceAndTheAnswerCarriesItsOutcome() {
        JsonNode mandate = onDemand("4242424242424242", null);

        JsonNode session = Collect.expect(201, series.charge("\"customer_id\":\"" + customer
                + "\",\"payment_method_id\":\"" + mandate.get("payment_method_id").stringValue()
                + "\",\"amount\":1500,\"currency\":\"ZAR\",\"external_reference\":\"order-7\","
                + "\"metadata\":{\"plan\":\"pro\"}"));

        assertThat(session.get("type").stringValue()).isEqualTo("next_in_series");
        assertThat(session.get("status").stringValue()).isEqualTo("completed");
        assertThat(session.get("payment_outcome").stringValue()).isEqualTo("paid");
        assertThat(session.get("mandate_id").stringValue()).isEqualTo(mandate.get("id").stringValue());
        assertThat(session.has("session_url")).as("no checkout").isFalse();
        assertThat(session.has("checkout_session_id")).isFalse();
        JsonNode payment = series.collect.get("/collect/payments/" + session.get("payment_id").stringValue());
        assertThat(payment.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(payment.get("paid_amount").longValue()).isEqualTo(1500);
        assertThat(payment.get("mandate_id").stringValue()).isEqualTo(mandate.get("id").stringValue());
        assertThat(payment.get("payment_method_id").stringValue()).isEqualTo(mandate.get("payment_method_id").stringValue());
        assertThat(payment.get("payment_method_details").get("card").get("last4").stringValue()).isEqualTo("4242");
        assertThat(payment.get("external_reference").stringValue()).isEqualTo("order-7");
        assertThat(payment.get("metadata").get("plan").stringValue()).isEqualTo("pro");
        JsonNode after = series.collect.get("/collect/mandates/" + mandate.get("id").stringValue());
        assertThat(after.get("payments_count").intValue()).isEqualTo(2);
        assertThat(PaymentEventsIT.types(jdbc, payment.get("id").stringValue())).containsExactly("payment.succeeded");
        // No checkout page opens for it.
        String checkoutId = jdbc.sql("select checkout_session_id from payment_sessions where id = ?")
                .param(session.get("id").stringValue()).query(String.class).single();
        assertThat(anonymous().get("/checkout/" + checkoutId).send().status()).isEqualTo(404);
    }

    @Test
    void eachRuleOfSection8IsA422NamingItWithNothingSentToTheProcessor() {
        JsonNode limited = onDemand("4242424242424242", "{\"period\":\"month\",\"max_amount\":12000,\"max_count\":3}");
        JsonNode fixed = series.mandate(customer, 9900, "\"mandate_options\":{\"type\":\"on_demand\",\"amount\":"
                + "{\"type\":\"fixed\",\"value\":9900},\"start_date\":\"" + today() + "\"}", "4242424242424242");
        LocalDate notToday = today().plusDays(today().getDayOfMonth() < 15 ? 3 : -3);
        JsonNode dated = series.mandate(customer, 9900, "\"mandate_options\":{\"type\":\"scheduled\",\"amount\":"
                + "{\"type\":\"fixed\",\"value\":9900},\"day_of_month\":" + notToday.getDayOfMonth()
                + ",\"start_date\":\"" + today() + "\"}", "4242424242424242");
        String stranger = series.customer();
        JsonNode strangers = series.mandate(stranger, 9900, "\"mandate_options\":{\"type\":\"on_demand\",\"amount\":"
                + "{\"type\":\"variable\",\"min\":1,\"max\":9900},\"start_date\":\"" + today() + "\"}", "4242424242424242");
        JsonNode subscriptions = series.collect.get("/collect/mandates/" + series.subscription(customer, 9900,
                "\"interval\":\"daily\",\"start_date\":\"" + today().plusDays(1) + "\",\"notice_days\":0", "4242424242424242")
                .get("mandate_id").stringValue());
        JsonNode cancelled = onDemand("4242424242424242", null);
        Collect.expect(200, api.post("/collect/mandates/" + cancelled.get("id").stringValue() + "/cancel", null).send());
        long sessions = jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Long.class).single();
        long calls = processorCalls();

        record Refusal(Api.Response response, String rule) {
        }
        List<Refusal> refusals = List.of(
                new Refusal(charge(cancelled, 500), "Mandate not active"),
                // Its subscription charges it on its dates: a charge of the merchant's would be a second one.
                new Refusal(charge(subscriptions, 9900), "Mandate of a subscription"),
                new Refusal(charge(fixed, 9899), "Amount not allowed"),
                new Refusal(charge(limited, 99), "Amount not allowed"),
                new Refusal(charge(limited, 50001), "Amount not allowed"),
                new Refusal(series.charge("\"customer_id\":\"" + customer + "\",\"mandate_id\":\""
                        + limited.get("id").stringValue() + "\",\"amount\":500,\"currency\":\"USD\""),
                        "Currency not allowed"),
                // The first payment (9900) counts: 2101 more would exceed 12 000.
                new Refusal(charge(limited, 2101), "Period limit max_amount exceeded"),
                new Refusal(charge(dated, 9900), "Not an execution date"),
                new Refusal(charge(strangers, 500), "Payment method of another customer"),
                new Refusal(series.charge("\"customer_id\":\"" + customer + "\",\"payment_method_id\":\""
                        + strangers.get("payment_method_id").stringValue() + "\",\"amount\":500,\"currency\":\"ZAR\""),
                        "Payment method of another customer"),
                new Refusal(series.charge("\"customer_id\":\"" + customer + "\",\"payment_method_id\":\""
                        + cancelled.get("payment_method_id").stringValue() + "\",\"amount\":500,\"currency\":\"ZAR\""),
                        "No active mandate"),
                new Refusal(series.charge("\"customer_id\":\"" + customer + "\",\"mandate_id\":\""
                        + limited.get("id").stringValue() + "\",\"payment_method_id\":\""
                        + fixed.get("payment_method_id").stringValue() + "\",\"amount\":500,\"currency\":\"ZAR\""),
                        "Mandate of another payment method"));
        for (Refusal refusal : refusals) {
            JsonNode problem = assertProblem(refusal.response(), 422, "operation_not_allowed");
            assertThat(problem.get("detail").stringValue()).as(refusal.rule()).startsWith(refusal.rule() + ":");
        }
        assertThat(processorCalls()).as("calls sent to the processor").isEqualTo(calls);
        assertThat(jdbc.sql("select count(*) from payment_sessions where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).as("sessions created").isEqualTo(sessions);

        // Within the limit it is charged; then the third charge of the month is one too many.
        assertThat(Collect.expect(201, charge(limited, 1000)).get("payment_outcome").stringValue()).isEqualTo("paid");
        assertThat(Collect.expect(201, charge(limited, 1100)).get("payment_outcome").stringValue()).isEqualTo("paid");
        JsonNode countExceeded = assertProblem(charge(limited, 100), 422, "operation_not_allowed");
        assertThat(countExceeded.get("detail").stringValue()).startsWith("Period limit max_count exceeded:");
    }

    @Test
    void unknownMandatesAndMethodsAre404AndAnotherMerchantsToo() {
        JsonNode mandate = onDemand("4242424242424242", null);

        assertProblem(series.charge("\"customer_id\":\"" + customer + "\",\"mandate_id\":\"mdt_0123456789abcdef01234567\""
                + ",\"amount\":500,\"currency\":\"ZAR\""), 404, "resource_not_found");
        assertProblem(series.charge("\"customer_id\":\"" + customer + "\",\"payment_method_id\":"
                + "\"pm_0123456789abcdef01234567\",\"amount\":500,\"currency\":\"ZAR\""), 404, "resource_not_found");
        for (Api stranger : List.of(merchants.create().test(), merchant.live())) {
            var response = stranger.post("/collect/payment_sessions", "{\"type\":\"next_in_series\",\"customer_id\":\""
                    + customer + "\",\"mandate_id\":\"" + mandate.get("id").stringValue()
                    + "\",\"amount\":500,\"currency\":\"ZAR\"}").send();
            assertProblem(response, 404, "resource_not_found");
        }
    }

    @Test
    void theSameKeySentAtOnceChargesTheCardOnceAndReplaysTheCharge() {
        JsonNode mandate = onDemand("4242424242424242", null);
        String body = "{\"type\":\"next_in_series\",\"customer_id\":\"" + customer + "\",\"mandate_id\":\""
                + mandate.get("id").stringValue() + "\",\"amount\":2500,\"currency\":\"ZAR\"}";
        long calls = processorCalls();

        // The request that gets the key is held at the processor until the 7 others have answered.
        List<Api.Response> answers = AtOnce.sendWhileOneIsHeld(8, i -> api.post("/collect/payment_sessions", body)
                .idempotencyKey("charge-1").send(), SandboxHold.onProcessor(database));

        List<Api.Response> charged = answers.stream().filter(r -> r.status() == 201).toList();
        assertThat(charged).as("exactly one request charged").hasSize(1);
        Api.Response first = charged.getFirst();
        assertThat(first.header("Idempotent-Replayed")).isNull();
        assertThat(first.json().get("payment_outcome").stringValue()).isEqualTo("paid");
        for (Api.Response other : answers) {
            if (other != first) {
                // Each answered while the charge ran: the key was busy, nothing of its own started.
                assertProblem(other, 409, "conflict");
                assertThat(other.header("Retry-After")).isNotNull();
            }
        }
        var replay = api.post("/collect/payment_sessions", body).idempotencyKey("charge-1").send();
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(first.bytes());
        assertThat(processorCalls() - calls).as("calls the processor received").isEqualTo(1);
        assertThat(jdbc.sql("select count(*) from payments where mandate_id = ? and off_session")
                .param(mandate.get("id").stringValue()).query(Long.class).single()).isEqualTo(1);
        var other = api.post("/collect/payment_sessions", body.replace("2500", "2600")).idempotencyKey("charge-1")
                .send();
        assertProblem(other, 409, "idempotency_conflict");
    }

    @Test
    void twentyChargesAtOnceNeverTakeMoreThanThePeriodLimitAllows() throws Exception {
        // At most 5 charges and 30 000 a month; the first payment took one charge and 9 900.
        JsonNode mandate = onDemand("4242424242424242", "{\"period\":\"month\",\"max_count\":5,\"max_amount\":30000}");
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Api.Response>> responses = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 20; i++) {
                responses.add(threads.submit(() -> {
                    start.await();
                    return charge(mandate, 6000);
                }));
            }
            start.countDown();
        }
        int charged = 0;
        for (Future<Api.Response> response : responses) {
            Api.Response r = response.get();
            if (r.status() == 201) {
                assertThat(r.json().get("payment_outcome").stringValue()).isEqualTo("paid");
                charged++;
            } else {
                JsonNode problem = assertProblem(r, 422, "operation_not_allowed");
                assertThat(problem.get("detail").stringValue()).startsWith("Period limit max_amount exceeded:");
            }
        }
        // 9 900 + 3 × 6 000 = 27 900; a fourth would make 33 900.
        assertThat(charged).isEqualTo(3);
        JsonNode after = series.collect.get("/collect/mandates/" + mandate.get("id").stringValue());
        assertThat(after.get("period_usage").get("amount").longValue()).isEqualTo(27900);
        assertThat(after.get("period_usage").get("count").intValue()).isEqualTo(4);
    }

    @Test
    void aHardDeclineFailsTheChargeWithItsErrorAndEndsTheSessionUnpaid() {
        JsonNode mandate = onDemand(SandboxProcessor.LATER_DECLINED, null);

        JsonNode session = Collect.expect(201, charge(mandate, 2000));

        assertThat(session.get("status").stringValue()).isEqualTo("cancelled");
        assertThat(session.get("payment_outcome").stringValue()).isEqualTo("unpaid");
        assertThat(session.get("last_payment_error").get("error_code").stringValue()).isEqualTo("card_declined");
        String paymentId = session.get("payment_id").stringValue();
        JsonNode payment = series.collect.get("/collect/payments/" + paymentId);
        assertThat(payment.get("status").stringValue()).isEqualTo("failed");
        assertThat(payment.get("last_payment_error").get("decline_code").stringValue()).isEqualTo("generic_decline");
        assertThat(PaymentEventsIT.types(jdbc, paymentId)).containsExactly("payment.failed");
        // A failed charge does not count.
        assertThat(series.collect.get("/collect/mandates/" + mandate.get("id").stringValue()).get("payments_count")
                .intValue()).isEqualTo(1);
    }

    @Test
    void aSoftDeclineFailsWithInsufficientFunds() {
        JsonNode mandate = onDemand(SandboxProcessor.LATER_INSUFFICIENT_FUNDS, null);

        JsonNode session = Collect.expect(201, charge(mandate, 2000));

        assertThat(session.get("payment_outcome").stringValue()).isEqualTo("unpaid");
        assertThat(session.get("last_payment_error").get("decline_code").stringValue()).isEqualTo("insufficient_funds");
    }

    @Test
    void aCardThatNeedsTheCustomerFailsTheChargeAuthenticationRequired() {
        // The first payment passes 3-D Secure with the customer present.
        JsonNode first = series.firstSession(customer, 9900, "\"mandate_options\":{\"type\":\"on_demand\",\"amount\":"
                + "{\"type\":\"variable\",\"min\":100,\"max\":50000},\"start_date\":\"" + today() + "\"}");
        String ckt = first.get("checkout_session_id").stringValue();
        assertThat(series.collect.payByCard(first, SandboxProcessor.THREE_D_SECURE).action()).isEqualTo("three_d_secure");
        assertThat(checkout.decideSandbox(ckt, SandboxProcessor.Decision.APPROVE).orElseThrow().status())
                .isEqualTo("succeeded");
        JsonNode mandate = series.collect.get("/collect/mandates/"
                + series.collect.refreshed(first).get("mandate_id").stringValue());

        JsonNode session = Collect.expect(201, charge(mandate, 2000));

        assertThat(session.get("payment_outcome").stringValue()).isEqualTo("unpaid");
        assertThat(session.get("last_payment_error").get("error_code").stringValue()).isEqualTo("authentication_required");
    }
}
