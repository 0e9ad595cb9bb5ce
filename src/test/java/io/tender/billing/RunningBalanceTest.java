package io.tender.billing;

import io.tender.api.Rejected;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunningBalanceTest {

    private static final RunningBalance NEVER_SET = RunningBalance.notSetUp("ob_1");

    @Test
    void aBalanceNeverSetCountsAsNothingOwedAndAPaymentMakesItACredit() {
        RunningBalance inZar = NEVER_SET.patched(new RunningBalance.Patch("ZAR", null, null), "customer");

        assertThat(inZar.outstanding()).isZero();
        assertThat(inZar.balance()).isNull();
        assertThat(inZar.limitRejection(250, "customer")).isEmpty();
        assertThat(inZar.applied(250).balance()).isEqualTo(-250);
    }

    @Test
    void aPatchedBalanceNeedsACurrencyAndACurrencyIsSetOnlyOnce() {
        assertThatThrownBy(() -> NEVER_SET.patched(new RunningBalance.Patch(null, 100L, null), "account"))
                .isInstanceOfSatisfying(Rejected.class, e -> assertThat(e.rejection())
                        .isEqualTo(new BillingRejection.BalanceWithoutCurrency()));

        RunningBalance set = NEVER_SET.patched(new RunningBalance.Patch("ZAR", 100L, null), "account");
        assertThat(set.patched(new RunningBalance.Patch(null, 700L, null), "account").balance()).isEqualTo(700);
        assertThat(set.patched(new RunningBalance.Patch("ZAR", 5L, null), "account").balance()).isEqualTo(5);
        assertThatThrownBy(() -> set.patched(new RunningBalance.Patch("USD", null, null), "account"))
                .isInstanceOfSatisfying(Rejected.class, e -> assertThat(e.rejection())
                        .isEqualTo(new BillingRejection.CurrencyFixed("account", "ZAR", "USD")));
    }

    @Test
    void aPaymentMayNotTakeTheCreditPastTheLimit() {
        RunningBalance nearLimit = new RunningBalance("ob_1", "ZAR", -Amounts.MAX_BALANCE + 5, null);

        assertThat(nearLimit.limitRejection(5, "account")).isEmpty();
        assertThat(nearLimit.limitRejection(6, "account")).contains(new BillingRejection.BalanceUnderLimit(
                "account", -Amounts.MAX_BALANCE + 5, 6, Amounts.MAX_BALANCE));
    }

    @Test
    void paymentRulesAreReplacedOrRemovedOnlyWhenThePatchSaysSo() {
        PaymentRules rules = new PaymentRules(1L, null, true, true);
        RunningBalance withRules = new RunningBalance("ob_1", "ZAR", 10L, rules);

        assertThat(withRules.patched(new RunningBalance.Patch(null, 20L, null), "customer").paymentRules()).isEqualTo(rules);
        assertThat(withRules.patched(new RunningBalance.Patch(null, null, new Change<>(null)), "customer").paymentRules())
                .isNull();
    }

    @Test
    void aRefundPutsTheBalanceBackUpByWhatWentBack() {
        RunningBalance owing = new RunningBalance("ob_1", "ZAR", 1000L, null);

        assertThat(owing.applied(1200).reversed(700).balance()).isEqualTo(500);
        assertThat(new RunningBalance("ob_1", "ZAR", null, null).reversed(300).balance()).isEqualTo(300);
    }
}
