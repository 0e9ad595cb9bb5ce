package io.tender.payment;

import io.tender.processor.PaymentMethodInput;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import org.springframework.stereotype.Component;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What is kept of a payment method (decisions §6, PCI DSS 3.3/3.4): of a card its scheme, bin, last4 and expiry and a
 * keyed fingerprint (the same card gives the same fingerprint, which no one can reverse without the master key); of
 * a phone number its last 4 digits. The card number and security code are never kept.
 */
@Component
class PaymentMethods {

    private final KeyedHash fingerprints;

    PaymentMethods(HashKeys hashKeys) {
        this.fingerprints = hashKeys.hash("card-fingerprint/v1");
    }

    /** The payment's {@code payment_method_details}. */
    static Map<String, Object> details(PaymentMethodInput method) {
        Map<String, Object> inner = new LinkedHashMap<>();
        switch (method) {
            case PaymentMethodInput.Card card -> {
                inner.put("scheme", scheme(card.number()));
                inner.put("bin", card.number().substring(0, 6));
                inner.put("last4", card.number().substring(card.number().length() - 4));
                inner.put("exp_month", card.expMonth());
                inner.put("exp_year", card.expYear());
            }
            case PaymentMethodInput.Bank bank -> inner.put("bank", bank.bank());
            case PaymentMethodInput.Saved saved -> throw new IllegalArgumentException(
                    "a kept card is described by its saved payment method");
            case PaymentMethodInput.Phone phone -> inner.put("phone_number", maskPhone(phone.phoneNumber()));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("type", method.type());
        details.put(method.type(), inner);
        return details;
    }

    String fingerprint(PaymentMethodInput method) {
        return method instanceof PaymentMethodInput.Card card
                ? "fp_" + HexFormat.of().formatHex(fingerprints.of(card.number())).substring(0, 32) : null;
    }

    static String scheme(String number) {
        if (number.startsWith("4")) {
            return "VISA";
        }
        if (number.startsWith("34") || number.startsWith("37")) {
            return "AMEX";
        }
        int two = Integer.parseInt(number.substring(0, 2));
        int four = Integer.parseInt(number.substring(0, 4));
        if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) {
            return "MASTERCARD";
        }
        return "UNKNOWN";
    }

    static String maskPhone(String phone) {
        return "*".repeat(Math.max(0, phone.length() - 4)) + phone.substring(Math.max(0, phone.length() - 4));
    }

    /**
     * A card's details with the funding the processor answered ({@code card.type}: {@code CREDIT}, {@code DEBIT});
     * other details, or none answered, as they are.
     */
    static Map<String, Object> withFunding(Map<String, Object> details, String funding) {
        if (funding == null || details == null || !(details.get("card") instanceof Map<?, ?> card)) {
            return details;
        }
        Map<String, Object> withFunding = new LinkedHashMap<>();
        card.forEach((k, v) -> withFunding.put(String.valueOf(k), v));
        withFunding.put("type", funding);
        Map<String, Object> changed = new LinkedHashMap<>(details);
        changed.put("card", withFunding);
        return changed;
    }
}
