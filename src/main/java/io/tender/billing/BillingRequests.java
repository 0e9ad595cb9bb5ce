package io.tender.billing;

import io.tender.api.Metadata;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.Map;

/**
 * The billing request bodies as the OpenAPI document describes them. Requests are read by the {@code parse} methods
 * of {@link NewCustomer}, {@link NewAccount}, {@link NewBill}, the patches and {@link TestPayment}, which enforce
 * the same rules and report every violation at once.
 */
final class BillingRequests {

    private BillingRequests() {
    }

    private static final String METADATA = "At most 20 keys; key names 1 to 40 characters; values strings of at most 500 characters.";
    private static final String METADATA_PATCH = Metadata.PATCH_DESCRIPTION;

    @Schema(name = "CreateCustomerRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record CreateCustomer(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = 255, pattern = "^[A-Za-z0-9._:@+-]+$",
                    description = "Unique per merchant and mode; must not start with `bcus_`.") String externalReference,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = 255) String name,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 3, maxLength = 254, format = "email", pattern = CustomerContacts.EMAIL_PATTERN, example = "ada@example.com") String email,
            @Schema(pattern = "^\\+[1-9][0-9]{1,14}$", description = "E.164") String phone,
            @Schema(minLength = 3, maxLength = 3, example = "ZAR", description = "ISO 4217; required when `balance` is given.") String currency,
            @Schema(minimum = "-999999999999", maximum = "999999999999", description = "Minor units; positive is owed, negative is credit.") Long balance,
            @Schema(description = "Without payment rules the customer balance cannot be paid against.") PaymentRules paymentRules,
            @Schema(description = METADATA, maxProperties = 20) Map<String, String> metadata) {
    }

    @Schema(name = "UpdateCustomerRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record UpdateCustomer(
            @Schema(minLength = 1, maxLength = 255) String name,
            @Schema(minLength = 3, maxLength = 254, format = "email", pattern = CustomerContacts.EMAIL_PATTERN, example = "ada@example.com") String email,
            @Schema(pattern = "^\\+[1-9][0-9]{1,14}$", description = "E.164; null removes it.", nullable = true) String phone,
            @Schema(minLength = 3, maxLength = 3, description = "Can be set once: only while the customer has none.") String currency,
            @Schema(minimum = "-999999999999", maximum = "999999999999", description = "Replaces the balance; needs a currency (given here or stored).") Long balance,
            @Schema(description = "Replaces the payment rules; null removes them.", nullable = true) PaymentRules paymentRules,
            @Schema(description = METADATA_PATCH) Map<String, String> metadata) {
    }

    @Schema(name = "CreateAccountRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record CreateAccount(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The owning customer: its id or external_reference, "
                    + "or an object with the create-customer fields (the customer is then created first, in the same transaction).",
                    oneOf = {String.class, CreateCustomer.class}) Object customer,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = 255, pattern = "^[A-Za-z0-9._:@+-]+$",
                    description = "Unique per merchant and mode; must not start with `bacc_`.") String externalReference,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = 255) String name,
            @Schema(minLength = 3, maxLength = 3, example = "ZAR", description = "ISO 4217; required when `balance` is given.") String currency,
            @Schema(minimum = "-999999999999", maximum = "999999999999", description = "Minor units; positive is owed, negative is credit.") Long balance,
            @Schema(description = "Without payment rules the account balance cannot be paid against.") PaymentRules paymentRules,
            @Schema(description = METADATA, maxProperties = 20) Map<String, String> metadata) {
    }

    @Schema(name = "UpdateAccountRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record UpdateAccount(
            @Schema(minLength = 1, maxLength = 255) String name,
            @Schema(minLength = 3, maxLength = 3, description = "Can be set once: only while the account has none.") String currency,
            @Schema(minimum = "-999999999999", maximum = "999999999999", description = "Replaces the balance of this account only; needs a currency.") Long balance,
            @Schema(description = "Replaces the payment rules; null removes them.", nullable = true) PaymentRules paymentRules,
            @Schema(description = METADATA_PATCH) Map<String, String> metadata) {
    }

    @Schema(name = "CreateBillRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record CreateBill(
            @Schema(description = "The account to raise the bill against: its id or external_reference, or an object with the "
                    + "create-account fields (whose `customer` may itself be an object); they are created first, in the same "
                    + "transaction. Required unless `customer` is given.", oneOf = {String.class, CreateAccount.class}) Object account,
            @Schema(description = "Customer id or external_reference: raises the bill without an account. With `account`, it must "
                    + "be that account's customer.") String customer,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$",
                    description = "Unique per merchant and mode; must not start with `bcus_` or `bill_`.") String externalReference,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 3, maxLength = 3, example = "ZAR") String currency,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "1", maximum = "99999999", description = "Minor units.") Long amountDue,
            @Schema(format = "date", description = "Defaults to today (UTC).") String billDate,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, format = "date", description = "Not before `bill_date`.") String dueDate,
            @Schema(description = "Defaults to partial payments up to the amount remaining: "
                    + "`{\"overpayment_allowed\": false, \"underpayment_allowed\": true}`.") PaymentRules paymentRules,
            @Schema(description = METADATA, maxProperties = 20) Map<String, String> metadata) {
    }

    @Schema(name = "UpdateBillRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record UpdateBill(
            @Schema(minimum = "0", maximum = "99999999", description = "Replaces the amount paid (0 to `amount_due`); "
                    + "`amount_remaining` and `status` follow.") Long amountPaid,
            @Schema(description = "Replaces the payment rules.") PaymentRules paymentRules,
            @Schema(description = METADATA_PATCH) Map<String, String> metadata) {
    }

    @Schema(name = "CreateTestPaymentRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE,
            description = "Exactly one of `bill`, `account` or `customer`.")
    record CreateTestPayment(
            @Schema(description = "Bill id or external_reference.") String bill,
            @Schema(description = "Account id or external_reference: pays the account balance.") String account,
            @Schema(description = "Customer id or external_reference: pays the customer balance.") String customer,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "1", maximum = "99999999", description = "Minor units.") Long amount,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 3, maxLength = 3, example = "ZAR") String currency) {
    }
}
