package io.tender.redemption;

public enum RedemptionStatus {
    DRAFT, RESERVED, CONFIRMED, FAILED;

    public String wire() {
        return name().toLowerCase();
    }

    public boolean isFinal() {
        return this == CONFIRMED || this == FAILED;
    }

    static RedemptionStatus fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
