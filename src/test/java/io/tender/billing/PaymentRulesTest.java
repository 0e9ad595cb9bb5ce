package io.tender.billing;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PaymentRulesTest {

    private static final PaymentRules EXACT = new PaymentRules(null, null, false, false);

    @Test
    void exactRulesAcceptOnlyTheOutstandingAmount() {
        assertThat(EXACT.refusal(1000, 1000, "bill")).isEmpty();
        assertThat(EXACT.refusal(999, 1000, "bill")).get().asString().contains("underpayment");
        assertThat(EXACT.refusal(1001, 1000, "bill")).get().asString().contains("overpayment");
    }

    @Test
    void nothingOutstandingMakesEveryPaymentAnOverpayment() {
        PaymentRules partial = new PaymentRules(null, null, false, true);

        assertThat(partial.refusal(1, 0, "customer")).get().asString()
                .isEqualTo("The payment of 1 is more than the 0 outstanding on this customer, and its payment_rules "
                        + "do not allow overpayment.");
        assertThat(partial.refusal(1, -500, "customer")).isPresent();
        assertThat(new PaymentRules(null, null, true, true).refusal(1, -500, "customer")).isEmpty();
    }

    @Test
    void boundsApplyBeforeTheOutstandingAmount() {
        PaymentRules bounded = new PaymentRules(100L, 5000L, true, true);

        assertThat(bounded.refusal(99, 50, "account")).get().asString().contains("min_amount of 100");
        assertThat(bounded.refusal(100, 50, "account")).isEmpty();
        assertThat(bounded.refusal(5000, 50, "account")).isEmpty();
        assertThat(bounded.refusal(5001, 99999, "account")).get().asString().contains("max_amount of 5000");
    }
}
