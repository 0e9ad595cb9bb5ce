package io.tender.billing;

import io.tender.api.Rejected;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BillTest {

    private static final Instant NOW = Instant.parse("2026-05-20T08:25:01.014Z");

    private static Bill unpaid(long amountDue) {
        return new Bill("bill_1", "INV-1", "ob_1", "bcus_1", null, BillStatus.UNPAID, "ZAR", amountDue, 0,
                LocalDate.parse("2026-05-01"), LocalDate.parse("2026-05-31"), PaymentRules.BILL_DEFAULT,
                Map.of("a", "1"), NOW, NOW);
    }

    @Test
    void paymentsAddUpAndTheBillIsPaidExactlyWhenNothingRemains() {
        Bill partly = unpaid(1000).applied(400, NOW);
        assertThat(partly.status()).isEqualTo(BillStatus.UNPAID);
        assertThat(partly.amountRemaining()).isEqualTo(600);

        Bill settled = partly.applied(600, NOW);
        assertThat(settled.status()).isEqualTo(BillStatus.PAID);
        assertThat(settled.amountPaid()).isEqualTo(1000);
        assertThat(settled.amountRemaining()).isZero();
    }

    @Test
    void aCorrectionReplacesAmountPaidAndCanReopenAPaidBill() {
        Bill paid = unpaid(1000).corrected(new BillPatch(1000L, null, null), NOW);
        assertThat(paid.status()).isEqualTo(BillStatus.PAID);

        Bill reopened = paid.corrected(new BillPatch(10L, null, Map.of("b", "2")), NOW);
        assertThat(reopened.status()).isEqualTo(BillStatus.UNPAID);
        assertThat(reopened.amountPaid()).isEqualTo(10);
        assertThat(reopened.metadata()).containsEntry("a", "1").containsEntry("b", "2");
    }

    @Test
    void aCorrectionAboveTheAmountDueIsRefused() {
        assertThatThrownBy(() -> unpaid(1000).corrected(new BillPatch(1001L, null, null), NOW))
                .isInstanceOfSatisfying(Rejected.class, e -> assertThat(e.rejection())
                        .isEqualTo(new BillingRejection.AmountPaidAboveDue(1001, 1000)));
    }

    @Test
    void aPaymentMayNotTakeAmountPaidPastTheLimit() {
        Bill large = unpaid(Amounts.MAX_BALANCE).applied(Amounts.MAX_BALANCE - 10, NOW);

        assertThat(large.limitRejection(10)).isEmpty();
        assertThat(large.limitRejection(11)).contains(new BillingRejection.AmountPaidOverLimit(
                Amounts.MAX_BALANCE - 10, 11, Amounts.MAX_BALANCE));
    }

    @Test
    void voidingIsOnlyForUnpaidBillsAndAVoidedBillNeverMovesAgain() {
        Bill voided = unpaid(1000).voided(NOW);
        assertThat(voided.status()).isEqualTo(BillStatus.VOIDED);
        assertThat(voided.voided(NOW.plusSeconds(1))).isSameAs(voided);

        assertThat(voided.stateRejection()).contains(new BillingRejection.BillVoided("paid"));
        assertThat(unpaid(1000).stateRejection()).isEmpty();
        assertThatThrownBy(() -> voided.corrected(new BillPatch(1L, null, null), NOW)).isInstanceOfSatisfying(
                Rejected.class, e -> assertThat(e.rejection()).isEqualTo(new BillingRejection.BillVoided("changed")));
        Bill paid = unpaid(5).applied(5, NOW);
        assertThatThrownBy(() -> paid.voided(NOW)).isInstanceOfSatisfying(Rejected.class,
                e -> assertThat(e.rejection()).isEqualTo(new BillingRejection.BillPaid()));
    }

    @Test
    void aRefundTakesAmountPaidDownAndAPaidBillIsUnpaidAgain() {
        Bill paid = unpaid(1000).applied(1000, NOW);

        Bill refunded = paid.reversed(300, NOW);
        assertThat(refunded.status()).isEqualTo(BillStatus.UNPAID);
        assertThat(refunded.amountPaid()).isEqualTo(700);
        assertThat(refunded.amountRemaining()).isEqualTo(300);
    }

    @Test
    void anOverpaidBillStaysPaidWhileARefundLeavesItPaidInFull() {
        Bill overpaid = unpaid(1000).applied(1500, NOW);

        assertThat(overpaid.reversed(500, NOW).status()).isEqualTo(BillStatus.PAID);
        assertThat(overpaid.reversed(501, NOW).status()).isEqualTo(BillStatus.UNPAID);
    }

    @Test
    void aRefundOnAVoidedBillTakesAmountPaidDownAndTheBillStaysVoided() {
        Bill voided = unpaid(1000).applied(400, NOW).voided(NOW);

        Bill refunded = voided.reversed(400, NOW);
        assertThat(refunded.status()).isEqualTo(BillStatus.VOIDED);
        assertThat(refunded.amountPaid()).isZero();
    }

    @Test
    void aRefundNeverTakesAmountPaidBelowZeroAfterACorrectionLoweredIt() {
        Bill corrected = unpaid(1000).applied(600, NOW).corrected(new BillPatch(100L, null, null), NOW);

        assertThat(corrected.reversed(600, NOW).amountPaid()).isZero();
    }
}
