package io.tender.refund;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Why a refund is made (decisions §10): {@code reason} of a refund, as the merchant gives it. */
public enum RefundReason {
    REQUESTED_BY_CUSTOMER, DUPLICATE, FRAUDULENT, OTHER;

    public static final List<String> WIRE = Arrays.stream(values()).map(RefundReason::wire).toList();

    public String wire() {
        return name().toLowerCase();
    }

    public static Optional<RefundReason> fromWire(String wire) {
        return Arrays.stream(values()).filter(r -> r.wire().equals(wire)).findFirst();
    }
}
