package io.tender.billing;

import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.auth.KeyKind;
import io.tender.auth.Mode;
import io.tender.payment.PaymentObligations;
import io.tender.payment.Payments;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Optional;

import static io.tender.billing.BillingApi.events;
import static io.tender.billing.BillingApi.expect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Decisions §10: a refund's success reverses that much of its payment's application, in the refund's transaction.
 * The refunds API is not in this branch yet, so the tests call {@link PaymentObligations#reverseRefunded} as the
 * refund flow will, in a transaction of their own, and check over HTTP what the merchant sees.
 */
class RefundReversalIT extends ApiIntegrationTest {

    private static final String PARTIAL_PAYMENTS =
            "\"payment_rules\":{\"overpayment_allowed\":false,\"underpayment_allowed\":true}";

    @Autowired
    PaymentObligations obligations;
    @Autowired
    Payments payments;
    @Autowired
    TransactionTemplate tx;

    private BillingApi billing;
    private Caller caller;
    private String customerId;

    @BeforeEach
    void merchant() {
        Merchant merchant = merchants.create();
        billing = new BillingApi(merchant.test());
        caller = new Caller(merchant.id(), Mode.TEST, KeyKind.SK_TEST, merchant.testKeyId());
        customerId = billing.customer("rev-c", "\"currency\":\"ZAR\",\"balance\":5000," + PARTIAL_PAYMENTS)
                .get("id").stringValue();
    }

    @Test
    void aPaidBillRefundedInPartIsUnpaidAgainWithAmountPaidDownByTheRefund() {
        JsonNode bill = billing.bill("customer", customerId, "INV-REV", 10000, "");
        String paymentId = pay("bill", "INV-REV", 10000);
        assertThat(billing.get("/billing/bills/INV-REV").get("status").stringValue()).isEqualTo("paid");
        String refundId = newRefundId();

        assertThat(reverse(paymentId, refundId, 3000)).isEmpty();

        JsonNode refunded = billing.get("/billing/bills/INV-REV");
        assertThat(refunded.get("status").stringValue()).isEqualTo("unpaid");
        assertThat(refunded.get("amount_paid").longValue()).isEqualTo(7000);
        assertThat(refunded.get("amount_remaining").longValue()).isEqualTo(3000);

        List<JsonNode> events = events(jdbc, bill.get("obligation_id").stringValue());
        assertThat(events.stream().map(e -> e.get("type").stringValue()))
                .containsExactly("obligation.amount_applied", "obligation.amount_reversed");
        JsonNode data = events.getLast().get("data");
        assertThat(data.propertyNames())
                .containsExactlyInAnyOrder("id", "amount", "currency", "payment_id", "refund_id", "customer_id");
        assertThat(data.get("id")).isEqualTo(bill.get("obligation_id"));
        assertThat(data.get("amount").longValue()).isEqualTo(3000);
        assertThat(data.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(data.get("payment_id").stringValue()).isEqualTo(paymentId);
        assertThat(data.get("refund_id").stringValue()).isEqualTo(refundId);
        assertThat(data.get("customer_id").stringValue()).isEqualTo(customerId);

        JsonNode log = billing.get("/events?type=obligation.amount_reversed");
        assertThat(log.get("data").valueStream().map(e -> e.get("data").get("refund_id").stringValue()))
                .containsExactly(refundId);
    }

    @Test
    void aCustomersBalanceGoesBackUpByTheRefund() {
        String paymentId = pay("customer", "rev-c", 2000);
        assertThat(balance("/billing/customers/rev-c")).isEqualTo(3000);

        assertThat(reverse(paymentId, newRefundId(), 500)).isEmpty();

        assertThat(balance("/billing/customers/rev-c")).isEqualTo(3500);
    }

    @Test
    void anAccountsBalanceGoesBackUpByTheRefundAndTheEventNamesTheAccount() {
        JsonNode account = billing.account(customerId, "rev-a", "\"currency\":\"ZAR\",\"balance\":8000,"
                + PARTIAL_PAYMENTS);
        String paymentId = pay("account", "rev-a", 8000);
        assertThat(balance("/billing/accounts/rev-a")).isZero();

        assertThat(reverse(paymentId, newRefundId(), 8000)).isEmpty();

        assertThat(balance("/billing/accounts/rev-a")).isEqualTo(8000);
        assertThat(balance("/billing/customers/rev-c")).isEqualTo(5000);
        JsonNode data = events(jdbc, account.get("obligation_id").stringValue()).getLast().get("data");
        assertThat(data.get("account_id")).isEqualTo(account.get("id"));
        assertThat(data.has("customer_id")).isFalse();
        assertThat(data.get("amount").longValue()).isEqualTo(8000);
    }

    @Test
    void theSameRefundTwiceReversesOnce() {
        String paymentId = pay("customer", "rev-c", 2000);
        String refundId = newRefundId();

        assertThat(reverse(paymentId, refundId, 1000)).isEmpty();
        assertThat(reverse(paymentId, refundId, 1000)).isEmpty();

        assertThat(balance("/billing/customers/rev-c")).isEqualTo(4000);
        assertThat(typesOf(customerObligation())).containsExactly("obligation.amount_applied",
                "obligation.amount_reversed");
    }

    @Test
    void refundsOfOnePaymentAddUpAndNeverReverseMoreThanItApplied() {
        String paymentId = pay("customer", "rev-c", 1000);
        assertThat(reverse(paymentId, newRefundId(), 600)).isEmpty();

        Optional<String> refused = reverse(paymentId, newRefundId(), 401);

        assertThat(refused).hasValueSatisfying(reason -> assertThat(reason).contains("ReversalAboveApplied")
                .contains("applied=1000").contains("reversed=600").contains("amount=401"));
        assertThat(balance("/billing/customers/rev-c")).isEqualTo(4600);
        assertThat(reverse(paymentId, newRefundId(), 400)).isEmpty();
        assertThat(balance("/billing/customers/rev-c")).isEqualTo(5000);
        assertThat(reverse(paymentId, newRefundId(), 1)).isPresent();
        assertThat(balance("/billing/customers/rev-c")).isEqualTo(5000);
        assertThat(typesOf(customerObligation())).containsExactly("obligation.amount_applied",
                "obligation.amount_reversed", "obligation.amount_reversed");
    }

    @Test
    void aPaymentNeverAppliedReturnsAReasonAndChangesNothing() {
        String paymentId = tx.execute(s -> payments.recordSucceeded(caller, 700, "ZAR", customerObligation()).id());
        String refundId = newRefundId();

        Optional<String> refused = reverse(paymentId, refundId, 700);

        assertThat(refused).hasValueSatisfying(reason -> assertThat(reason).contains("NeverApplied")
                .contains(paymentId));
        assertThat(balance("/billing/customers/rev-c")).isEqualTo(5000);
        assertThat(events(jdbc, customerObligation())).isEmpty();
        assertThat(reversalRows(refundId)).isZero();
    }

    @Test
    void aRefundOfAPaymentMadeForNoObligationHasNothingToReverse() {
        String paymentId = tx.execute(s -> payments.recordSucceeded(caller, 700, "ZAR", null).id());
        String refundId = newRefundId();

        assertThat(reverse(paymentId, refundId, 700)).isEmpty();

        assertThat(reversalRows(refundId)).isZero();
    }

    @Test
    void aVoidedBillIsReversedTooAndStaysVoided() {
        JsonNode bill = billing.bill("customer", customerId, "INV-VOID", 1000, "");
        String paymentId = pay("bill", "INV-VOID", 400);
        expect(200, billing.api.post("/billing/bills/INV-VOID/void", null).send());

        assertThat(reverse(paymentId, newRefundId(), 400)).isEmpty();

        JsonNode voided = billing.get("/billing/bills/INV-VOID");
        assertThat(voided.get("status").stringValue()).isEqualTo("voided");
        assertThat(voided.get("amount_paid").longValue()).isZero();
        assertThat(typesOf(bill.get("obligation_id").stringValue())).containsExactly("obligation.amount_applied",
                "obligation.amount_reversed");
    }

    @Test
    void theDatabaseRefusesASecondReversalOfARefund() {
        String paymentId = pay("customer", "rev-c", 1000);
        String refundId = newRefundId();
        reverse(paymentId, refundId, 100);

        assertThatThrownBy(() -> jdbc.sql("""
                        insert into billing_payment_reversals (refund_id, payment_id, obligation_id, merchant_id, mode,
                            amount, currency, event_id, reversed_at)
                        values (?, ?, ?, ?, 'test', 100, 'ZAR', 'evt_x', now())""")
                .params(refundId, paymentId, customerObligation(), caller.merchantId()).update())
                .isInstanceOf(DuplicateKeyException.class);
    }

    /** A test-helper payment, applied; its id. */
    private String pay(String field, String target, long amount) {
        return expect(201, billing.pay(field, target, amount, "ZAR")).get("id").stringValue();
    }

    /** What the refund flow will do when a refund succeeds: reverse, in the transaction that records it. */
    private Optional<String> reverse(String paymentId, String refundId, long amount) {
        return tx.execute(s -> obligations.reverseRefunded(caller, paymentId, refundId, amount));
    }

    private static String newRefundId() {
        return Ids.newId("rfd_");
    }

    private long balance(String path) {
        return billing.get(path).get("balance").longValue();
    }

    private String customerObligation() {
        return billing.get("/billing/customers/rev-c").get("obligation_id").stringValue();
    }

    private List<String> typesOf(String obligationId) {
        return events(jdbc, obligationId).stream().map(e -> e.get("type").stringValue()).toList();
    }

    private long reversalRows(String refundId) {
        return jdbc.sql("select count(*) from billing_payment_reversals where refund_id = ?").params(refundId)
                .query(Long.class).single();
    }
}
