package io.tender.payment;

import io.tender.auth.Mode;

import java.time.Instant;
import java.util.Map;

/**
 * A saved payment method ({@code pm_}): what a succeeded verification kept of the card. {@code details} is the
 * payment's {@code payment_method_details} (scheme, bin, last4, expiry), never the card number or security code.
 */
record SavedPaymentMethod(String id, String merchantId, Mode mode, String customerId, String type,
                          Map<String, Object> details, String fingerprint, String paymentId, Instant createdAt) {

    static final String PREFIX = "pm_";
}
