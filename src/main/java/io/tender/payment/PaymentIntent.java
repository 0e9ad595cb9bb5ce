package io.tender.payment;

/** What a payment is for: money, or (an amount of 0) verifying a card, which saves it (decisions §6). */
enum PaymentIntent {
    PAYMENT, PAYMENT_METHOD_VERIFICATION;

    String wire() {
        return name().toLowerCase();
    }
}
