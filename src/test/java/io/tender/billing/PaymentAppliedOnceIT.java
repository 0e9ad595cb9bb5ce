package io.tender.billing;

import io.tender.auth.Caller;
import io.tender.auth.KeyKind;
import io.tender.auth.Mode;
import io.tender.payment.Payments;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Applying one payment twice is impossible: through the facade Collect will call (sequentially and concurrently),
 * and in the database itself.
 */
class PaymentAppliedOnceIT extends ApiIntegrationTest {

    @Autowired
    ObligationPayments obligationPayments;
    @Autowired
    Payments payments;
    @Autowired
    TransactionTemplate tx;

    private Merchant merchant;
    private BillingApi billing;
    private Caller caller;
    private JsonNode customer;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
        billing = new BillingApi(merchant.test());
        caller = new Caller(merchant.id(), Mode.TEST, KeyKind.SK_TEST, merchant.testKeyId());
        customer = billing.customer("once", "\"currency\":\"ZAR\",\"balance\":10000,\"payment_rules\":"
                + "{\"overpayment_allowed\":false,\"underpayment_allowed\":true}");
    }

    @Test
    void applyingAnAppliedPaymentAgainMovesNothingAndAnnouncesNothing() {
        String paymentId = BillingApi.expect(201, billing.pay("customer", "once", 2500, "ZAR")).get("id").stringValue();

        var again = obligationPayments.apply(caller, paymentId);

        assertThat(again).isInstanceOf(ObligationPayments.Outcome.AlreadyApplied.class);
        assertThat(again.application().paymentId()).isEqualTo(paymentId);
        assertThat(again.application().amount()).isEqualTo(2500);
        assertThat(billing.get("/billing/customers/once").get("balance").longValue()).isEqualTo(7500);
        assertThat(BillingApi.events(jdbc, obligationId())).hasSize(1);
    }

    @Test
    void concurrentApplicationsOfOnePaymentApplyItExactlyOnce() throws Exception {
        String paymentId = tx.execute(s -> payments.recordSucceeded(caller, 700, "ZAR", obligationId()).id());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ObligationPayments.Outcome>> futures = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(12)) {
            for (int i = 0; i < 12; i++) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return obligationPayments.apply(caller, paymentId);
                }));
            }
            start.countDown();
            List<ObligationPayments.Outcome> outcomes = new ArrayList<>();
            for (var future : futures) {
                outcomes.add(future.get());
            }

            assertThat(outcomes).filteredOn(o -> o instanceof ObligationPayments.Outcome.Applied).hasSize(1);
            assertThat(outcomes).filteredOn(o -> o instanceof ObligationPayments.Outcome.AlreadyApplied).hasSize(11);
        }
        assertThat(billing.get("/billing/customers/once").get("balance").longValue()).isEqualTo(9300);
        assertThat(BillingApi.events(jdbc, obligationId())).hasSize(1);
    }

    @Test
    void theDatabaseRefusesASecondApplicationOfAPayment() {
        String paymentId = BillingApi.expect(201, billing.pay("customer", "once", 100, "ZAR")).get("id").stringValue();

        assertThatThrownBy(() -> jdbc.sql("""
                        insert into billing_payment_applications (payment_id, obligation_id, merchant_id, mode, customer_id,
                            amount, currency, event_id, applied_at)
                        values (?, ?, ?, 'test', ?, 100, 'ZAR', 'evt_x', now())""")
                .params(paymentId, obligationId(), merchant.id(), customer.get("id").stringValue()).update())
                .isInstanceOf(DuplicateKeyException.class);
    }

    @Test
    void anotherMerchantCannotApplyThePayment() {
        String paymentId = tx.execute(s -> payments.recordSucceeded(caller, 700, "ZAR", obligationId()).id());
        Merchant other = merchants.create();
        Caller stranger = new Caller(other.id(), Mode.TEST, KeyKind.SK_TEST, other.testKeyId());

        assertThatThrownBy(() -> obligationPayments.apply(stranger, paymentId))
                .hasMessage("No such payment.");
        assertThat(billing.get("/billing/customers/once").get("balance").longValue()).isEqualTo(10000);
    }

    private String obligationId() {
        return customer.get("obligation_id").stringValue();
    }
}
