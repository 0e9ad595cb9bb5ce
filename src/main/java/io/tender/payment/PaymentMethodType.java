package io.tender.payment;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The payment method types of decisions §6; requests may still say {@code instant_eft}, stored as {@code pay_by_bank}. */
public enum PaymentMethodType {
    CARD, PAY_BY_BANK, CAPITEC_PAY, MOBILE_MONEY;

    public static final List<String> WIRE = Arrays.stream(values()).map(PaymentMethodType::wire).toList();

    public String wire() {
        return name().toLowerCase();
    }

    public static Optional<PaymentMethodType> fromWire(String value) {
        if ("instant_eft".equals(value)) {
            return Optional.of(PAY_BY_BANK);
        }
        return Arrays.stream(values()).filter(t -> t.wire().equals(value)).findFirst();
    }

    /** Methods the customer approves on their phone, whose number the session may prefill. */
    boolean usesPhone() {
        return this == CAPITEC_PAY || this == MOBILE_MONEY;
    }
}
