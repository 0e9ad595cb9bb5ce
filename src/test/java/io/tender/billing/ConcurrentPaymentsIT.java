package io.tender.billing;

import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Many payments applied at once to one obligation add up exactly and never break its rules. */
class ConcurrentPaymentsIT extends ApiIntegrationTest {

    private BillingApi billing;

    @BeforeEach
    void merchant() {
        Merchant merchant = merchants.create();
        billing = new BillingApi(merchant.test());
    }

    @Test
    void twentyFivePaymentsAtOnceSettleABillExactlyAndNeverOverpayIt() throws Exception {
        String customer = billing.customer("c", "").get("id").stringValue();
        JsonNode bill = billing.bill("customer", customer, "INV-RUSH", 10_000, "");

        List<Api.Response> responses = payAtOnce("bill", "INV-RUSH", LongStream.generate(() -> 500).limit(25).toArray());

        assertThat(responses.stream().filter(r -> r.status() == 201)).hasSize(20);
        assertThat(responses.stream().filter(r -> r.status() == 422)).hasSize(5)
                .allSatisfy(r -> assertThat(r.json().get("code").stringValue()).isEqualTo("operation_not_allowed"));
        JsonNode settled = billing.get("/billing/bills/INV-RUSH");
        assertThat(settled.get("amount_paid").longValue()).isEqualTo(10_000);
        assertThat(settled.get("amount_remaining").longValue()).isZero();
        assertThat(settled.get("status").stringValue()).isEqualTo("paid");
        assertRecordedExactly(bill.get("obligation_id").stringValue(), responses, 10_000);
    }

    @Test
    void thirtyPaymentsAtOnceLeaveAnAccountBalanceExactlyMinusTheAcceptedOnes() throws Exception {
        String customer = billing.customer("c", "").get("id").stringValue();
        JsonNode account = billing.account(customer, "acc", "\"currency\":\"ZAR\",\"balance\":100000,\"payment_rules\":"
                + "{\"min_amount\":100,\"max_amount\":5000,\"overpayment_allowed\":false,\"underpayment_allowed\":true}");
        // 50 is below min_amount, 5050 to 5850 above max_amount; the other 24 (250 to 4850) add up to 61200.
        long[] amounts = LongStream.range(0, 30).map(i -> 50 + 200 * i).toArray();

        List<Api.Response> responses = payAtOnce("account", "acc", amounts);

        for (int i = 0; i < amounts.length; i++) {
            boolean withinRules = amounts[i] >= 100 && amounts[i] <= 5000;
            assertThat(responses.get(i).status()).as("payment of " + amounts[i]).isEqualTo(withinRules ? 201 : 422);
        }
        assertThat(billing.get("/billing/accounts/acc").get("balance").longValue()).isEqualTo(100_000 - 61_200);
        assertRecordedExactly(account.get("obligation_id").stringValue(), responses, 61_200);
    }

    @Test
    void paymentsRacingForTheLastOfABalanceThatForbidsOverpaymentNeverTakeItIntoCredit() throws Exception {
        String customer = billing.customer("credit", "\"currency\":\"ZAR\",\"balance\":3000,\"payment_rules\":"
                + "{\"overpayment_allowed\":false,\"underpayment_allowed\":true}").get("id").stringValue();
        long[] amounts = LongStream.generate(() -> 700).limit(20).toArray();

        List<Api.Response> responses = payAtOnce("customer", customer, amounts);

        // 4 x 700 = 2800 fit; a fifth would take the balance to -400.
        assertThat(responses.stream().filter(r -> r.status() == 201)).hasSize(4);
        assertThat(billing.get("/billing/customers/credit").get("balance").longValue()).isEqualTo(200);
    }

    /** Sends one payment per amount, all released at the same moment; responses in the order of the amounts. */
    private List<Api.Response> payAtOnce(String field, String target, long[] amounts) {
        return AtOnce.send(amounts.length, i -> billing.pay(field, target, amounts[i], "ZAR"));
    }

    /** One application row and one event per accepted payment, adding up to {@code total}; nothing for the others. */
    private void assertRecordedExactly(String obligationId, List<Api.Response> responses, long total) {
        List<String> accepted = responses.stream().filter(r -> r.status() == 201)
                .map(r -> r.json().get("id").stringValue()).toList();
        assertThat(jdbc.sql("select coalesce(sum(amount), 0) from billing_payment_applications where obligation_id = ?")
                .params(obligationId).query(Long.class).single()).isEqualTo(total);
        assertThat(jdbc.sql("select payment_id from billing_payment_applications where obligation_id = ?")
                .params(obligationId).query(String.class).list()).containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(BillingApi.events(jdbc, obligationId).stream().map(e -> e.get("data").get("payment_id").stringValue()))
                .containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(jdbc.sql("select count(*) from payments where obligation_id = ?").params(obligationId)
                .query(Long.class).single()).isEqualTo(accepted.size());
    }
}
