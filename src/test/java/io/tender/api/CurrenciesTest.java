package io.tender.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Decisions §1: currency is ISO 4217, three upper-case letters, checked against the real code list. */
class CurrenciesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @ParameterizedTest
    @ValueSource(strings = {"ZAR", "USD", "EUR", "GBP", "KES", "NGN", "JPY", "BWP", "NAD", "SLE", "VED", "ZWG", "XOF"})
    void activeCurrenciesAreAccepted(String code) {
        assertThat(Currencies.isActive(code)).isTrue();
        assertThat(read(code)).isEqualTo(code);
    }

    @ParameterizedTest
    @ValueSource(strings = {"XXX", "ZZZ", "XTS", "XAU", "XAG", "XDR", "USN", "ZWL", "SLL", "HRK", "AAA"})
    void noCurrencyTestFundMetalAndRetiredCodesAreRefused(String code) {
        assertThat(Currencies.isActive(code)).isFalse();
        assertThat(error(code).message()).isEqualTo("is not an active ISO 4217 currency code");
    }

    @ParameterizedTest
    @CsvSource({"150, ZAR, 15000", "150.5, ZAR, 15050", "150.50, ZAR, 15050",
            "0.01, ZAR, 1", "150, JPY, 150", "1.250, KWD, 1250", "150.505, ZAR, ", "1.5, JPY, ", "0.001, ZAR, "})
    void aTypedAmountIsInMinorUnitsOnlyWithNoMoreDecimalsThanItsCurrencyHas(String typed, String currency, Long minor) {
        var read = Currencies.minorUnits(new BigDecimal(typed), currency);
        if (minor == null) {
            assertThat(read).isEmpty();
        } else {
            assertThat(read).hasValue(minor);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zar", "Zar", "ZA", "ZARR", "Z1R", ""})
    void anythingNotThreeUpperCaseLettersIsRefusedForItsShape(String code) {
        assertThat(Currencies.isActive(code)).isFalse();
        assertThat(error(code).field()).isEqualTo("currency");
    }

    @Test
    void nullIsNotACurrency() {
        assertThat(Currencies.isActive(null)).isFalse();
    }

    @Test
    void everyAcceptedCodeIsARealIso4217Code() {
        // Against the JDK's own ISO 4217 table: the hand-kept list has no typos and no invented codes.
        Set<String> known = Currency.getAvailableCurrencies().stream().map(Currency::getCurrencyCode).collect(Collectors.toSet());
        int accepted = 0;
        for (char a = 'A'; a <= 'Z'; a++) {
            for (char b = 'A'; b <= 'Z'; b++) {
                for (char c = 'A'; c <= 'Z'; c++) {
                    String code = "" + a + b + c;
                    if (Currencies.isActive(code)) {
                        accepted++;
                        assertThat(known).as(code).contains(code);
                    }
                }
            }
        }
        assertThat(accepted).isGreaterThan(150);
    }

    private static String read(String code) {
        JsonInput in = JsonInput.body(JSON.readTree("{\"currency\":\"" + code + "\"}"));
        String value = Currencies.read(in, "currency", false);
        in.throwIfInvalid();
        return value;
    }

    private static FieldError error(String code) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> read(code));
        assertThat(e).isNotNull();
        assertThat(e.errors()).hasSize(1);
        return e.errors().getFirst();
    }
}
