package io.tender.api;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Active ISO 4217 currency codes (list one, 2026). Fund, metal, test and "no currency" codes ({@code XXX},
 * {@code XTS}, {@code XAU}, ...) are not money a voucher or bill can be in, so they are refused too.
 */
public final class Currencies {

    private static final Pattern SHAPE = Pattern.compile("^[A-Z]{3}$");

    private static final Set<String> ACTIVE = Set.of((
            "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD "
            + "CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ "
            + "GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR "
            + "LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN "
            + "PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB "
            + "TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW "
            + "ZWG").split(" "));

    private Currencies() {
    }

    public static boolean isActive(String code) {
        return code != null && ACTIVE.contains(code);
    }

    /**
     * An amount as the live product shows it to a payer (checkout, payment-link emails): the currency code, a space,
     * major units ({@code ZAR 150.00}).
     */
    public static String display(long minorUnits, String currency) {
        return currency + " " + major(minorUnits, currency);
    }

    /** Minor units in major units, with as many decimals as the currency has ({@code 150.00}, {@code JPY 150}). */
    public static String major(long minorUnits, String currency) {
        return BigDecimal.valueOf(minorUnits, digits(currency)).toPlainString();
    }

    /** How many decimals the currency's major unit has (ZAR 2, JPY 0). */
    public static int digits(String currency) {
        return Math.max(0, Currency.getInstance(currency).getDefaultFractionDigits());
    }

    /**
     * An amount a person typed in major units ({@code 150}, {@code 150.5}, {@code 150.50}) in minor units; empty when
     * it has more decimals than the currency has.
     */
    public static OptionalLong minorUnits(BigDecimal major, String currency) {
        int digits = digits(currency);
        return major.scale() <= digits ? OptionalLong.of(major.movePointRight(digits).longValueExact())
                : OptionalLong.empty();
    }

    /** Reads an optional currency field: exactly three upper-case letters naming an active ISO 4217 currency. */
    public static String read(JsonInput input, String field, boolean required) {
        String value = input.string(field, required, 3, 3, SHAPE, "must be three upper-case letters (ISO 4217)");
        return input.check(value, Currencies::isActive, field, "is not an active ISO 4217 currency code");
    }
}
