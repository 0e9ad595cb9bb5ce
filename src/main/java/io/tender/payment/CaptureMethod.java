package io.tender.payment;

/** How a card's authorization is captured: at once, or by the merchant later (decisions §6). */
enum CaptureMethod {
    AUTOMATIC, MANUAL;

    String wire() {
        return name().toLowerCase();
    }
}
