package io.tender.payment;

/** Payment statuses of the spec; the legacy in-flight values are read as {@code pending} and never stored. */
public enum PaymentStatus {
    DRAFT, PENDING, SUCCEEDED, FAILED, CANCELLED, EXPIRED;

    public String wire() {
        return name().toLowerCase();
    }

    static PaymentStatus fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
