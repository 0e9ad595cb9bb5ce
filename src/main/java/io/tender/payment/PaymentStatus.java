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

    /** No processor call will move the payment's status again (a succeeded manual payment still captures and voids). */
    boolean isFinal() {
        return this != DRAFT && this != PENDING;
    }
}
