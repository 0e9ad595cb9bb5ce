package io.tender.subscription;

import io.tender.payment.Collect;
import com.zaxxer.hikari.HikariDataSource;
import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.SandboxHold;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import java.time.LocalDate;
import java.util.List;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §8 and §13 with two instances on one PostgreSQL (this test's service and a {@link SecondInstance} on its
 * database), requests sent at once and spread over both, and the one that gets to the sandbox processor held there
 * until every other has answered ({@link AtOnce#sendWhileOneIsHeld}): so each other answer was given while that
 * charge was in flight. An installment mandate's limits count the charge in flight; a subscription's test clock runs
 * one advance at a time, and every period due is charged once, on its own date.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeriesAcrossInstancesIT extends SeriesIntegrationTest {

    @Autowired
    private ApplicationContext context;
    @Autowired
    private HikariDataSource database;

    private ConfigurableApplicationContext second;

    @BeforeAll
    void startTheSecondInstance() {
        second = SecondInstance.start(context, temporaryDataDirectory("series-second"));
    }

    @AfterAll
    void stopTheSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    /** The merchant's test key on instance {@code i % 2}. */
    private Api on(int i) {
        return i % 2 == 0 ? api : new Api(SecondInstance.baseUrl(second), api.key());
    }

    private long keptCardCharges(String mandateId) {
        return jdbc.sql("""
                        select count(*) from sandbox_processor_operations o join payments p
                          on o.operation_key like p.id || ':%'
                        where p.mandate_id = ? and p.off_session""")
                .param(mandateId).query(Long.class).single();
    }

    @Test
    void sixChargesOfAOneInstallmentMandateSentAtOnceToTwoInstancesTakeOneInstallmentAndReachTheProcessorOnce() {
        LocalDate today = today();
        JsonNode mandate = series.mandate(customer, 9900, "\"mandate_options\":{\"type\":\"installment\",\"amount\":"
                + "{\"type\":\"fixed\",\"value\":9900},\"day_of_month\":" + today.getDayOfMonth() + ",\"start_date\":\""
                + today + "\",\"installments\":1}", "4242424242424242");
        String mandateId = mandate.get("id").stringValue();
        String body = "{\"type\":\"next_in_series\",\"customer_id\":\"" + customer + "\",\"mandate_id\":\"" + mandateId
                + "\",\"amount\":9900,\"currency\":\"ZAR\"}";

        List<Api.Response> responses = AtOnce.sendWhileOneIsHeld(6,
                i -> on(i).post("/collect/payment_sessions", body).idempotencyKey("installment-" + i).send(),
                SandboxHold.onProcessor(database));

        List<Api.Response> paid = responses.stream().filter(r -> r.status() == 201).toList();
        assertThat(paid).as("charges made").hasSize(1);
        assertThat(paid.getFirst().json().get("payment_outcome").stringValue()).isEqualTo("paid");
        for (Api.Response r : responses) {
            if (r.status() != 201) {
                JsonNode problem = assertProblem(r, 422, "operation_not_allowed");
                assertThat(problem.get("detail").stringValue()).isEqualTo("No installment left: " + mandateId
                        + " allows 1 installment after its first payment, and 1 was charged or is being charged.");
            }
        }
        assertThat(keptCardCharges(mandateId)).as("processor calls").isOne();
        JsonNode after = series.collect.get("/collect/mandates/" + mandateId);
        assertThat(after.get("payments_count").intValue()).as("the first payment and one installment").isEqualTo(2);
        assertThat(after.get("installments_remaining").intValue()).isZero();
        assertThat(after.get("status").stringValue()).isEqualTo("completed");
        assertThat(jdbc.sql("select count(*) from payments where mandate_id = ?").param(mandateId)
                .query(Long.class).single()).isEqualTo(2);
    }

    @Test
    void twoAdvancesSentAtOnceToTwoInstancesRunOneAtATimeAndChargeEveryMonthOnItsOwnDate() {
        LocalDate today = today();
        JsonNode subscription = series.subscription(customer, 9900, "\"interval\":\"monthly\"", "4242424242424242");
        String id = subscription.get("id").stringValue();
        LocalDate to = today.plusMonths(3);
        String path = "/collect/test_helpers/subscriptions/" + id + "/advance";
        String body = "{\"to\":\"" + to + "\"}";

        List<Api.Response> responses = AtOnce.sendWhileOneIsHeld(2,
                i -> on(i).post(path, body).idempotencyKey("advance-" + i).send(), SandboxHold.onProcessor(database));

        List<Api.Response> ran = responses.stream().filter(r -> r.status() == 200).toList();
        assertThat(ran).as("advances that ran").hasSize(1);
        assertThat(ran.getFirst().json().get("payments")).hasSize(3);
        assertThat(ran.getFirst().json().get("test_clock").stringValue()).isEqualTo(to.toString());
        Api.Response refused = responses.stream().filter(r -> r.status() != 200).findFirst().orElseThrow();
        assertProblem(refused, 409, "conflict");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        // The refused one's key was released: its retry runs, and finds nothing more to do.
        int other = responses.indexOf(refused);
        JsonNode retried = Collect.expect(200, on(other).post(path, body).idempotencyKey("advance-" + other).send());
        assertThat(retried.get("payments")).isEmpty();
        JsonNode again = Collect.expect(200, api.post(path, body).send());
        assertThat(again.get("payments")).isEmpty();

        assertThat(Series.periods(jdbc, id)).isEqualTo(Series.paidMonthly(today, 3));
        assertThat(jdbc.sql("select count(*) from payments where subscription_id = ? and status = 'succeeded'")
                .param(id).query(Long.class).single()).as("one payment a period").isEqualTo(3);
        JsonNode after = series.collect.get("/collect/subscriptions/" + id);
        assertThat(after.get("current_period").get("start").stringValue()).isEqualTo(today.plusMonths(3).toString());
        assertThat(after.get("current_period").get("end").stringValue()).isEqualTo(today.plusMonths(4).toString());
    }

}
