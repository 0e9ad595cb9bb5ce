package io.tender.checkout;

import io.tender.api.Currencies;

/** Amounts as the checkout shows them, the live product's way: the currency code, a space, major units ({@code ZAR 150.00}). */
final class Amounts {

    private Amounts() {
    }

    static String display(long minorUnits, String currency) {
        return Currencies.display(minorUnits, currency);
    }
}
