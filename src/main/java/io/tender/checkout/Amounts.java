package io.tender.checkout;

import java.math.BigDecimal;
import java.util.Currency;

/** Amounts as the checkout shows them, the live product's way: the currency code, a space, major units ({@code ZAR 150.00}). */
final class Amounts {

    private Amounts() {
    }

    static String display(long minorUnits, String currency) {
        int digits = Math.max(0, Currency.getInstance(currency).getDefaultFractionDigits());
        return currency + " " + BigDecimal.valueOf(minorUnits, digits).toPlainString();
    }
}
