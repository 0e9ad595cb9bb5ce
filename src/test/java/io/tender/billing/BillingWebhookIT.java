package io.tender.billing;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.WebhookReceiver;
import io.tender.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three usage models of the spec end to end: from creating the customer, account or bill to a payment whose
 * {@code obligation.amount_applied} webhook arrives signed at a receiver written from the Standard Webhooks spec.
 */
class BillingWebhookIT extends ApiIntegrationTest {

    private static final String PARTIAL_PAYMENTS =
            "\"payment_rules\":{\"overpayment_allowed\":false,\"underpayment_allowed\":true}";

    private Merchant merchant;
    private BillingApi billing;
    private WebhookReceiver receiver;

    @BeforeEach
    void subscribe() {
        merchant = merchants.create();
        billing = new BillingApi(merchant.test());
        receiver = WebhookReceiver.start();
        JsonNode endpoint = billing.create("/webhook_endpoints", "{\"url\":\"" + receiver.url("/billing")
                + "\",\"enabled_events\":[\"obligation.amount_applied\"]}");
        receiver.secrets(endpoint.get("secret").stringValue());
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    private JsonNode webhookFor(JsonNode payment) {
        String paymentId = payment.get("id").stringValue();
        List<Received> received = receiver.await(list -> list.stream().anyMatch(r -> r.signatureValid()
                        && r.json().get("data").get("payment_id").stringValue().equals(paymentId)),
                Duration.ofSeconds(30), "the webhook of " + paymentId);
        Received webhook = received.stream()
                .filter(r -> r.json().get("data").get("payment_id").stringValue().equals(paymentId)).findFirst().orElseThrow();
        assertThat(webhook.signatureValid()).isTrue();
        JsonNode body = webhook.json();
        assertThat(body.propertyNames()).containsExactly("id", "type", "created_at", "data");
        assertThat(body.get("id").stringValue()).matches("^evt_[a-f0-9]{24}$").isEqualTo(webhook.webhookId());
        assertThat(body.get("type").stringValue()).isEqualTo("obligation.amount_applied");
        return body.get("data");
    }

    @Test
    void customerBalance() {
        JsonNode customer = billing.customer("wh-cust", "\"currency\":\"ZAR\",\"balance\":5000," + PARTIAL_PAYMENTS);
        JsonNode payment = BillingApi.expect(201, billing.pay("customer", "wh-cust", 2000, "ZAR"));

        JsonNode data = webhookFor(payment);

        assertThat(data.get("id")).isEqualTo(customer.get("obligation_id"));
        assertThat(data.get("amount").longValue()).isEqualTo(2000);
        assertThat(data.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(data.get("customer_id")).isEqualTo(customer.get("id"));
        assertThat(data.has("account_id")).isFalse();
        assertThat(billing.get("/billing/customers/wh-cust").get("balance").longValue()).isEqualTo(3000);
    }

    @Test
    void accountBalance() {
        String customer = billing.customer("wh-acc-owner", "").get("id").stringValue();
        JsonNode account = billing.account(customer, "wh-acc", "\"currency\":\"ZAR\",\"balance\":800," + PARTIAL_PAYMENTS);
        JsonNode payment = BillingApi.expect(201, billing.pay("account", "wh-acc", 800, "ZAR"));

        JsonNode data = webhookFor(payment);

        assertThat(data.get("id")).isEqualTo(account.get("obligation_id"));
        assertThat(data.get("account_id")).isEqualTo(account.get("id"));
        assertThat(data.has("customer_id")).isFalse();
        assertThat(billing.get("/billing/accounts/wh-acc").get("balance").longValue()).isZero();
    }

    @Test
    void billAmountDue() {
        String customer = billing.customer("wh-bill-owner", "").get("id").stringValue();
        String account = billing.account(customer, "wh-bill-acc", "").get("id").stringValue();
        JsonNode bill = billing.bill("account", account, "WH-INV-1", 15000, "");
        JsonNode payment = BillingApi.expect(201, billing.pay("bill", "WH-INV-1", 15000, "ZAR"));

        JsonNode data = webhookFor(payment);

        assertThat(data.get("id")).isEqualTo(bill.get("obligation_id"));
        assertThat(data.get("amount").longValue()).isEqualTo(15000);
        // A bill raised against an account names the account.
        assertThat(data.get("account_id").stringValue()).isEqualTo(account);
        JsonNode paid = billing.get("/billing/bills/WH-INV-1");
        assertThat(paid.get("status").stringValue()).isEqualTo("paid");
        assertThat(paid.get("amount_remaining").longValue()).isZero();
    }

    @Test
    void aBillRaisedAgainstACustomerNamesTheCustomer() {
        String customer = billing.customer("wh-cbill", "").get("id").stringValue();
        billing.bill("customer", customer, "WH-INV-2", 3000, "");
        JsonNode payment = BillingApi.expect(201, billing.pay("bill", "WH-INV-2", 1000, "ZAR"));

        JsonNode data = webhookFor(payment);

        assertThat(data.get("customer_id").stringValue()).isEqualTo(customer);
        assertThat(data.has("account_id")).isFalse();
    }
}
