package io.tender.paymentpage;

import io.tender.api.Metadata;
import io.tender.auth.Caller;
import io.tender.auth.Mode;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A payment page (decisions §7): what it shows a visitor and how much it takes, a fixed {@code amount} or the payer's
 * choice within {@code amountOptions}. {@code active} until the merchant makes it {@code inactive} (for good) or its
 * {@code expiresAt} passes ({@code expired}, computed, never stored); only an active page takes payments. A deleted
 * page is kept, marked, for its transactions and payments.
 */
record PaymentPage(String id, String merchantId, Mode mode, boolean deactivated, String title, String description,
                   String currency, Long amount, AmountOptions amountOptions, String returnUrl,
                   boolean requiresCustomerDetails, boolean requiresDeliveryDetails, List<CustomField> customFields,
                   String account, List<String> visiblePaymentMethods, String externalReference,
                   Map<String, String> metadata, Instant expiresAt, Instant deletedAt, Instant createdAt,
                   Instant updatedAt) {

    enum Status {
        ACTIVE, INACTIVE, EXPIRED;

        String wire() {
            return name().toLowerCase();
        }
    }

    /** The payer's choice: any amount from {@code min} to {@code max}, {@code presets} offered as buttons. */
    record AmountOptions(long min, long max, List<Long> presets) {
    }

    /** One more thing the page asks the payer: free text, or one of {@code options}. */
    record CustomField(String key, String label, String type, List<String> options, boolean required,
                       String defaultValue) {

        public boolean dropdown() {
            return "dropdown".equals(type);
        }
    }

    static PaymentPage create(String id, Caller caller, PageInput in, Instant now) {
        return new PaymentPage(id, caller.merchantId(), caller.mode(), false, in.title(), in.description(),
                in.currency(), in.amount(), in.amountOptions(), in.returnUrl(),
                in.requiresCustomerDetails() == null || in.requiresCustomerDetails(),
                in.requiresDeliveryDetails() != null && in.requiresDeliveryDetails(),
                in.customFields() == null ? List.of() : in.customFields(), in.account(), in.visiblePaymentMethods(),
                in.externalReference(), in.metadata() == null || in.metadata().isEmpty() ? null : in.metadata(),
                in.expiresAt(), null, now, now);
    }

    Status status(Instant now) {
        if (deactivated) {
            return Status.INACTIVE;
        }
        return expiresAt != null && !now.isBefore(expiresAt) ? Status.EXPIRED : Status.ACTIVE;
    }

    boolean takesPayments(Instant now) {
        return status(now) == Status.ACTIVE;
    }

    /**
     * A PATCH: what the page shows changes in any status (payments already made keep what they were made with). A new
     * {@code expires_at} would reopen or extend a closed page, so it is for an active page only.
     */
    PaymentPage patched(PageInput in, Instant now) {
        if (in.given("expires_at") && !takesPayments(now)) {
            throw new PaymentPageRejection.ExpiryFixed(status(now).wire()).thrown();
        }
        boolean fixed = in.given("amount");
        boolean variable = in.given("amount_options");
        return new PaymentPage(id, merchantId, mode, deactivated, in.or("title", in.title(), title),
                in.or("description", in.description(), description), currency,
                fixed ? in.amount() : variable ? null : amount,
                variable ? in.amountOptions() : fixed ? null : amountOptions,
                in.or("return_url", in.returnUrl(), returnUrl),
                in.or("requires_customer_details", in.requiresCustomerDetails(), requiresCustomerDetails),
                in.or("requires_delivery_details", in.requiresDeliveryDetails(), requiresDeliveryDetails),
                in.or("custom_fields", in.customFields(), customFields), account,
                in.or("visible_payment_methods", in.visiblePaymentMethods(), visiblePaymentMethods),
                in.or("external_reference", in.externalReference(), externalReference),
                Metadata.merge(metadata, in.metadata()), in.or("expires_at", in.expiresAt(), expiresAt), deletedAt,
                createdAt, now);
    }

    /** Stops taking payments, for good; an inactive page stays as it is. */
    PaymentPage deactivated(Instant now) {
        return deactivated ? this : new PaymentPage(id, merchantId, mode, true, title, description, currency, amount,
                amountOptions, returnUrl, requiresCustomerDetails, requiresDeliveryDetails, customFields, account,
                visiblePaymentMethods, externalReference, metadata, expiresAt, deletedAt, createdAt, now);
    }

    /** Whether the payer may pay {@code chosen}: the fixed amount, or one within the page's range. */
    boolean allows(long chosen) {
        return amount != null ? chosen == amount : chosen >= amountOptions.min() && chosen <= amountOptions.max();
    }
}
