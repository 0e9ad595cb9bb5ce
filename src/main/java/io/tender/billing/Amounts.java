package io.tender.billing;

/** Money limits of billing, in minor units. */
final class Amounts {

    /** Largest bill {@code amount_due} (decisions §4), payment, and payment rule bound. */
    static final long MAX_PAYMENT = 99_999_999;

    /** A balance stays within plus or minus this, however many payments and corrections it sees. */
    static final long MAX_BALANCE = 999_999_999_999L;

    private Amounts() {
    }
}
