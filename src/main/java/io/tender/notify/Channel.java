package io.tender.notify;

/** How a payment link reaches the payer. */
public enum Channel {
    EMAIL, SMS;

    public String wire() {
        return name().toLowerCase();
    }

    static Channel fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
