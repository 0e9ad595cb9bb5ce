package io.tender.api;

import io.tender.client.ApiClient;
import io.tender.client.ApiException;
import io.tender.client.api.BillsApi;
import io.tender.client.api.CustomersApi;
import io.tender.client.api.PaymentSessionsApi;
import io.tender.client.api.RedemptionsApi;
import io.tender.client.model.Bill;
import io.tender.client.model.BillList;
import io.tender.client.model.CreateBillRequest;
import io.tender.client.model.CreateCustomerRequest;
import io.tender.client.model.CreatePaymentSessionRequest;
import io.tender.client.model.CreateRedemptionRequest;
import io.tender.client.model.BillStatus;
import io.tender.client.model.OneVoucherRedemption;
import io.tender.client.model.OneVoucherRedemptionRequest;
import io.tender.client.model.RedemptionStatus;
import io.tender.client.model.OneVoucherSource;
import io.tender.client.model.PaymentSession;
import io.tender.client.model.Redemption;
import io.tender.client.model.RedemptionList;
import io.tender.client.model.UpdateBillRequest;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import io.tender.support.Vouchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Java client generated from docs/openapi.json (the document /openapi.json serves, see OpenApiCopyIT) by
 * openapi-generator at build time drives the API over HTTP with a test-mode key: what a merchant's generated client
 * would send and read, typed as the document says.
 */
class GeneratedClientIT extends ApiIntegrationTest {

    private ApiClient client;

    @BeforeEach
    void client() {
        Merchants.Merchant merchant = merchants.create();
        client = new ApiClient();
        client.updateBaseUri(base());
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + merchant.test().key()));
    }

    private static String key() {
        return UUID.randomUUID().toString();
    }

    @Test
    void aRedemptionIsCreatedReadAndListed() throws Exception {
        RedemptionsApi redemptions = new RedemptionsApi(client);
        String pin = Vouchers.validPin();
        // The create request and the redemption are unions on `type`: the one_voucher member carries its source.
        OneVoucherRedemption created = redemptions.createRedemption(new CreateRedemptionRequest(
                new OneVoucherRedemptionRequest().type(OneVoucherRedemptionRequest.TypeEnum.VOUCHERS_ONE_VOUCHER)
                        .source(new OneVoucherSource().pin(pin)).putMetadataItem("order", "A-1")), key())
                .getOneVoucherRedemption();

        assertThat(created.getId()).startsWith("rdm_");
        assertThat(created.getStatus()).isEqualTo(RedemptionStatus.CONFIRMED);
        assertThat(created.getMetadata()).containsEntry("order", "A-1");
        assertThat(redemptions.getRedemption(created.getId()).getOneVoucherRedemption().getVersion())
                .isEqualTo(created.getVersion());

        // The last page: next_cursor is null, which the document now allows.
        RedemptionList page = redemptions.listRedemptions(10, null, null, null, null, null, null);
        assertThat(page.getData()).extracting(r -> r.getOneVoucherRedemption().getId()).containsExactly(created.getId());
        assertThat(page.getHasMore()).isFalse();
        assertThat(page.getNextCursor()).isNull();

        assertThatThrownBy(() -> redemptions.getRedemption("rdm_" + "0".repeat(24)))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getResponseBody()).contains("resource_not_found");
                });
    }

    @Test
    void aBillIsCreatedUpdatedVoidedAndListed() throws Exception {
        CustomersApi customers = new CustomersApi(client);
        BillsApi billing = new BillsApi(client);
        customers.createCustomer(new CreateCustomerRequest().externalReference("cus-1").name("Ada")
                .email("ada@example.com"), key());
        Bill bill = billing.createBill(new CreateBillRequest().customer("cus-1").externalReference("INV-1")
                .currency("ZAR").amountDue(5000L).dueDate(LocalDate.of(2030, 1, 31))
                .putMetadataItem("plan", "basic").putMetadataItem("note", "first"), key());
        assertThat(bill.getStatus()).isEqualTo(BillStatus.UNPAID);
        assertThat(bill.getAmountRemaining()).isEqualTo(5000L);

        // A PATCH removes a metadata key with a null value: the document types PATCH metadata values string or null.
        Map<String, String> metadata = new HashMap<>();
        metadata.put("note", null);
        metadata.put("plan", "pro");
        Bill updated = billing.updateBill(bill.getId(), new UpdateBillRequest().amountPaid(1000L)
                .metadata(metadata), key());
        assertThat(updated.getAmountRemaining()).isEqualTo(4000L);
        assertThat(updated.getMetadata()).isEqualTo(Map.of("plan", "pro"));

        // Void takes no body.
        Bill voided = billing.voidBill("INV-1", key());
        assertThat(voided.getStatus()).isEqualTo(BillStatus.VOIDED);

        BillList bills = billing.listBills(null, null, "cus-1", null, null, null, null, null);
        assertThat(bills.getData()).extracting(Bill::getId).containsExactly(bill.getId());
        assertThat(bills.getNextCursor()).isNull();
    }

    @Test
    void aPaymentSessionIsCreatedReadAndCancelled() throws Exception {
        PaymentSessionsApi sessions = new PaymentSessionsApi(client);
        PaymentSession session = sessions.createPaymentSession(new CreatePaymentSessionRequest().amount(2500L)
                .currency("ZAR").externalReference("order-7"), key());
        assertThat(session.getStatus()).isEqualTo(PaymentSession.StatusEnum.ACTIVE);
        assertThat(session.getSessionUrl()).hasScheme("http");
        assertThat(sessions.getPaymentSession(session.getId()).getAmount()).isEqualTo(2500L);

        PaymentSession cancelled = sessions.cancelPaymentSession(session.getId(), key());
        assertThat(cancelled.getStatus()).isEqualTo(PaymentSession.StatusEnum.CANCELLED);
        assertThat(cancelled.getPaymentOutcome()).isEqualTo(PaymentSession.PaymentOutcomeEnum.UNPAID);
    }
}
