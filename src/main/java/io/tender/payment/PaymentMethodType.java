package io.tender.payment;

import io.tender.api.JsonInput;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The payment method types of decisions §6, in the order the checkout lists them; requests may still say
 * {@code instant_eft}, stored as {@code pay_by_bank}.
 */
public enum PaymentMethodType {
    CARD("Card"), PAY_BY_BANK("Pay by bank"), CAPITEC_PAY("Capitec Pay"), MOBILE_MONEY("Mobile money");

    public static final List<String> WIRE = Arrays.stream(values()).map(PaymentMethodType::wire).toList();

    private final String label;

    PaymentMethodType(String label) {
        this.label = label;
    }

    public String wire() {
        return name().toLowerCase();
    }

    /** The name the customer reads. */
    public String label() {
        return label;
    }

    public static Optional<PaymentMethodType> fromWire(String value) {
        if ("instant_eft".equals(value)) {
            return Optional.of(PAY_BY_BANK);
        }
        return Arrays.stream(values()).filter(t -> t.wire().equals(value)).findFirst();
    }

    /**
     * Reads a list of method types ({@code visible_payment_methods}): one or more, in wire form ({@code instant_eft}
     * as {@code pay_by_bank}), each once. Null when absent or refused (the refusal is recorded in {@code in}).
     */
    public static List<String> readList(JsonInput in, String name) {
        List<String> types = in.strings(name, 4, 20);
        if (types == null) {
            return null;
        }
        List<String> wire = types.stream().map(t -> fromWire(t).map(PaymentMethodType::wire).orElse(null)).toList();
        if (!in.check(!wire.isEmpty() && !wire.contains(null), name, "must name one or more of " + String.join(", ", WIRE))) {
            return null;
        }
        return wire.stream().distinct().toList();
    }

    /** Methods the customer approves on their phone, whose number the session may prefill. */
    public boolean usesPhone() {
        return this == CAPITEC_PAY || this == MOBILE_MONEY;
    }
}
