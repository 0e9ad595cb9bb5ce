package io.tender.billing;

import io.tender.billing.BillingRejection.AboveMaximum;
import io.tender.billing.BillingRejection.BelowMinimum;
import io.tender.billing.BillingRejection.OverOutstanding;
import io.tender.billing.BillingRejection.UnderOutstanding;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PaymentRulesTest {

    private static final PaymentRules EXACT = new PaymentRules(null, null, false, false);

    @Test
    void exactRulesAcceptOnlyTheOutstandingAmount() {
        assertThat(EXACT.rejection(1000, 1000, "bill")).isEmpty();
        assertThat(EXACT.rejection(999, 1000, "bill")).contains(new UnderOutstanding("bill", 999, 1000));
        assertThat(EXACT.rejection(1001, 1000, "bill")).contains(new OverOutstanding("bill", 1001, 1000));
    }

    @Test
    void nothingOutstandingMakesEveryPaymentAnOverpayment() {
        PaymentRules partial = new PaymentRules(null, null, false, true);

        assertThat(partial.rejection(1, 0, "customer")).contains(new OverOutstanding("customer", 1, 0));
        assertThat(new BillingProblems().problem(partial.rejection(1, 0, "customer").orElseThrow()).getMessage())
                .isEqualTo("The payment of 1 is more than the 0 outstanding on this customer, and its payment_rules "
                        + "do not allow overpayment.");
        assertThat(partial.rejection(1, -500, "customer")).contains(new OverOutstanding("customer", 1, -500));
        assertThat(new PaymentRules(null, null, true, true).rejection(1, -500, "customer")).isEmpty();
    }

    @Test
    void boundsApplyBeforeTheOutstandingAmount() {
        PaymentRules bounded = new PaymentRules(100L, 5000L, true, true);

        assertThat(bounded.rejection(99, 50, "account")).contains(new BelowMinimum("account", 99, 100));
        assertThat(bounded.rejection(100, 50, "account")).isEmpty();
        assertThat(bounded.rejection(5000, 50, "account")).isEmpty();
        assertThat(bounded.rejection(5001, 99999, "account")).contains(new AboveMaximum("account", 5001, 5000));
    }

    @Test
    void theBoundsRefuseEvenWhatTheOutstandingAmountWouldAccept() {
        PaymentRules exactWithBounds = new PaymentRules(100L, 200L, false, false);

        assertThat(exactWithBounds.rejection(50, 50, "bill")).contains(new BelowMinimum("bill", 50, 100));
        assertThat(exactWithBounds.rejection(300, 300, "bill")).contains(new AboveMaximum("bill", 300, 200));
        assertThat(exactWithBounds.rejection(150, 150, "bill")).isEmpty();
    }
}
