package io.tender.billing;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code unpaid} on creation, {@code paid} once settled in full, {@code voided} when cancelled (decisions §4). */
enum BillStatus {
    UNPAID, PAID, VOIDED;

    static final Set<String> WIRE_VALUES = Arrays.stream(values()).map(BillStatus::wire).collect(Collectors.toSet());

    String wire() {
        return name().toLowerCase();
    }

    static BillStatus fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
