package io.tender.checkout;

import java.util.Arrays;
import java.util.Optional;

/** The payment methods of decisions §6, in the order the checkout lists them. */
public enum PaymentMethodType {
    CARD("card", "Card"),
    PAY_BY_BANK("pay_by_bank", "Pay by bank"),
    CAPITEC_PAY("capitec_pay", "Capitec Pay"),
    MOBILE_MONEY("mobile_money", "Mobile money");

    private final String wire;
    private final String label;

    PaymentMethodType(String wire, String label) {
        this.wire = wire;
        this.label = label;
    }

    public String wire() {
        return wire;
    }

    /** The name the customer reads. */
    public String label() {
        return label;
    }

    public boolean usesPhone() {
        return this == CAPITEC_PAY || this == MOBILE_MONEY;
    }

    /** The type for a wire name; {@code instant_eft} is the old name of {@code pay_by_bank}. */
    public static Optional<PaymentMethodType> fromWire(String value) {
        if ("instant_eft".equals(value)) {
            return Optional.of(PAY_BY_BANK);
        }
        return Arrays.stream(values()).filter(t -> t.wire.equals(value)).findFirst();
    }
}
