package io.tender.billing;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
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
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.errors().getFirst().field()).isEqualTo("amount_paid");
                });
    }

    @Test
    void voidingIsOnlyForUnpaidBillsAndAVoidedBillNeverMovesAgain() {
        Bill voided = unpaid(1000).voided(NOW);
        assertThat(voided.status()).isEqualTo(BillStatus.VOIDED);
        assertThat(voided.voided(NOW.plusSeconds(1))).isSameAs(voided);

        for (Runnable change : new Runnable[]{() -> voided.applied(1, NOW),
                () -> voided.corrected(new BillPatch(1L, null, null), NOW)}) {
            assertThatThrownBy(change::run).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.code()).isEqualTo(ProblemCode.INVALID_STATE_TRANSITION));
        }
        Bill paid = unpaid(5).applied(5, NOW);
        assertThatThrownBy(() -> paid.voided(NOW)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(ProblemCode.INVALID_STATE_TRANSITION));
    }
}
