package io.tender.billing;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.billing.BillingRejection.BillVoided;
import io.tender.billing.BillingRejection.CurrencyMismatch;
import io.tender.billing.BillingRejection.NoCurrency;
import io.tender.billing.BillingRejection.NoPaymentRules;
import io.tender.billing.BillingRejection.UnderOutstanding;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

import static io.tender.billing.ObligationPayments.PAYABLE;
import static io.tender.billing.ObligationPayments.TERMS;
import static io.tender.billing.ObligationPayments.firstRejection;
import static org.assertj.core.api.Assertions.assertThat;

/** The payment checks as values: which rule refuses first, with its amounts, and the answer each one words. */
class PaymentChecksTest {

    private static final Instant NOW = Instant.parse("2026-05-20T08:25:01.014Z");

    private static Bill bill(BillStatus status, String currency, PaymentRules rules) {
        return new Bill("bill_1", "INV-1", "ob_1", "bcus_1", null, status, currency, 1000, 0,
                LocalDate.parse("2026-05-01"), LocalDate.parse("2026-05-31"), rules, Map.of(), NOW, NOW);
    }

    private static Customer customer(String currency, Long balance, PaymentRules rules) {
        return customer(new RunningBalance("ob_2", currency, balance, rules));
    }

    private static Customer customerWithoutBalance() {
        return customer(RunningBalance.notSetUp("ob_2"));
    }

    private static Customer customer(RunningBalance balance) {
        return new Customer("bcus_1", "C-1", "Ada", null, null, balance, null, NOW, NOW);
    }

    @Test
    void aPayablePaymentPassesEveryCheck() {
        assertThat(firstRejection(PAYABLE, bill(BillStatus.UNPAID, "ZAR", PaymentRules.BILL_DEFAULT), 400, "ZAR"))
                .isEmpty();
        assertThat(firstRejection(PAYABLE, customer("ZAR", 0L, new PaymentRules(null, null, true, true)), 400, "ZAR"))
                .isEmpty();
    }

    @Test
    void theFirstRuleThatRefusesAnswersAndAVoidedBillIsCheckedFirst() {
        // A voided bill with no currency would fail every check: only the voided state is named.
        assertThat(firstRejection(PAYABLE, bill(BillStatus.VOIDED, null, null), 5000, "USD"))
                .contains(new BillVoided("paid"));
        assertThat(firstRejection(TERMS, customerWithoutBalance(), 5, "ZAR")).contains(new NoCurrency("customer"));
        assertThat(firstRejection(TERMS, customer("ZAR", null, null), 5, "ZAR"))
                .contains(new NoPaymentRules("customer"));
        assertThat(firstRejection(TERMS, bill(BillStatus.UNPAID, "ZAR", new PaymentRules(null, null, false, false)),
                5, "USD")).contains(new CurrencyMismatch("bill", "ZAR", "USD"));
        assertThat(firstRejection(TERMS, bill(BillStatus.UNPAID, "ZAR", new PaymentRules(null, null, false, false)),
                5, "ZAR")).contains(new UnderOutstanding("bill", 5, 1000));
    }

    @Test
    void theLimitsAreCheckedWhenAPaymentIsAppliedNotWhenASessionOpens() {
        Customer atTheLimit = customer("ZAR", -Amounts.MAX_BALANCE, new PaymentRules(null, null, true, true));

        assertThat(firstRejection(TERMS, atTheLimit, 1, "ZAR")).isEmpty();
        assertThat(firstRejection(PAYABLE, atTheLimit, 1, "ZAR")).contains(new BillingRejection.BalanceUnderLimit(
                "customer", -Amounts.MAX_BALANCE, 1, Amounts.MAX_BALANCE));
    }

    @Test
    void eachRejectionAnswersItsProblem() {
        BillingProblems problems = new BillingProblems();

        assertProblem(problems.problem(new BillVoided("paid")), ProblemCode.INVALID_STATE_TRANSITION, 409,
                "A voided bill cannot be paid.");
        assertProblem(problems.problem(new BillingRejection.BillPaid()), ProblemCode.INVALID_STATE_TRANSITION, 409,
                "A paid bill cannot be voided.");
        assertProblem(problems.problem(new NoCurrency("account")), ProblemCode.OPERATION_NOT_ALLOWED, 422,
                "This account has no currency, so it cannot be paid against yet. Set its currency first.");
        assertProblem(problems.problem(new CurrencyMismatch("bill", "ZAR", "USD")), ProblemCode.OPERATION_NOT_ALLOWED,
                422, "This bill is in ZAR; a payment in USD cannot be applied to it.");
        assertProblem(problems.problem(new BillingRejection.BelowMinimum("account", 99, 100)),
                ProblemCode.OPERATION_NOT_ALLOWED, 422,
                "The payment of 99 is below the min_amount of 100 that this account accepts.");
        assertProblem(problems.problem(new BillingRejection.OverOutstanding("customer", 1, -500)),
                ProblemCode.OPERATION_NOT_ALLOWED, 422, "The payment of 1 is more than the 0 outstanding on this "
                        + "customer, and its payment_rules do not allow overpayment.");
        assertProblem(problems.problem(new BillingRejection.AmountPaidOverLimit(10, 20, Amounts.MAX_BALANCE)),
                ProblemCode.OPERATION_NOT_ALLOWED, 422,
                "This payment would take the bill's amount_paid above 999999999999.");
        assertProblem(problems.problem(new BillingRejection.CurrencyFixed("customer", "ZAR", "USD")),
                ProblemCode.CONFLICT, 409, "The currency of a customer cannot change once set.");
        ApiException aboveDue = problems.problem(new BillingRejection.AmountPaidAboveDue(1001, 1000));
        assertProblem(aboveDue, ProblemCode.BAD_REQUEST, 400, "amount_paid: must be at most amount_due (1000)");
        assertThat(aboveDue.errors().getFirst().field()).isEqualTo("amount_paid");
    }

    private static void assertProblem(ApiException problem, ProblemCode code, int status, String detail) {
        assertThat(problem.code()).isEqualTo(code);
        assertThat(problem.status()).isEqualTo(status);
        assertThat(problem.getMessage()).isEqualTo(detail);
    }
}
