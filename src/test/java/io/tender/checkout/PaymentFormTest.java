package io.tender.checkout;

import io.tender.payment.PaymentMethodType;
import io.tender.processor.PaymentMethodInput;

import org.junit.jupiter.api.Test;

import java.time.YearMonth;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PaymentFormTest {

    private static final YearMonth NOW = YearMonth.of(2026, 11);

    private static PaymentForm card(String number, String expiry, String code) {
        return new PaymentForm("card", number, expiry, code, null, null);
    }

    private static PaymentForm bank(String bank) {
        return PaymentForm.from(Map.of("method", "pay_by_bank", PaymentForm.BANK, bank)::get);
    }

    @Test
    void aValidCardWithSpacesBecomesItsDigitsAndExpiry() {
        var checked = card("4242 4242 4242 4242", "12 / 34", "123").check(PaymentMethodType.CARD, NOW, "ZA");
        assertThat(checked).isEqualTo(new PaymentForm.Checked.Valid(new PaymentMethodInput.Card("4242424242424242", 12, 2034, "123")));
    }

    @Test
    void aNumberFailingTheLuhnCheckIsRefused() {
        var checked = card("4242424242424241", "12/34", "123").check(PaymentMethodType.CARD, NOW, "ZA");
        assertThat(((PaymentForm.Checked.Invalid) checked).errors()).containsOnlyKeys("card_number");
    }

    @Test
    void theCurrentMonthIsStillValidAndLastMonthIsExpired() {
        assertThat(card("4242424242424242", "11/26", "123").check(PaymentMethodType.CARD, NOW, "ZA"))
                .isInstanceOf(PaymentForm.Checked.Valid.class);
        var expired = card("4242424242424242", "10/26", "123").check(PaymentMethodType.CARD, NOW, "ZA");
        assertThat(((PaymentForm.Checked.Invalid) expired).errors()).containsOnlyKeys("expiry");
    }

    @Test
    void everyMissingOrMalformedFieldIsNamed() {
        var checked = card("", "13/30", "12a").check(PaymentMethodType.CARD, NOW, "ZA");
        assertThat(((PaymentForm.Checked.Invalid) checked).errors())
                .containsOnlyKeys("card_number", "expiry", "security_code");
    }

    @Test
    void anAmexNeedsFourDigitsOfCode() {
        assertThat(card("378282246310005", "12/34", "123").check(PaymentMethodType.CARD, NOW, "ZA"))
                .isInstanceOf(PaymentForm.Checked.Invalid.class);
        assertThat(card("378282246310005", "12/34", "1234").check(PaymentMethodType.CARD, NOW, "ZA"))
                .isInstanceOf(PaymentForm.Checked.Valid.class);
    }

    @Test
    void southAfricanPhoneNumbersMayBeTypedTheLocalWay() {
        assertThat(PaymentForm.phone("082 123 4567", "ZA")).contains("+27821234567");
        assertThat(PaymentForm.phone("+27 82 123 4567", "ZA")).contains("+27821234567");
        assertThat(PaymentForm.phone("+44 20 7946 0958", "ZA")).isEmpty();
        assertThat(PaymentForm.phone("12345", "ZA")).isEmpty();
    }

    @Test
    void payByBankNeedsAKnownBank() {
        assertThat(bank("nedbank")
                .check(PaymentMethodType.PAY_BY_BANK, NOW, "ZA"))
                .isEqualTo(new PaymentForm.Checked.Valid(new PaymentMethodInput.Bank("nedbank")));
        assertThat(bank("").check(PaymentMethodType.PAY_BY_BANK, NOW, "ZA"))
                .isInstanceOf(PaymentForm.Checked.Invalid.class);
    }

    @Test
    void nothingOfTheCardShowsInTheirTextForms() {
        var form = card("4242424242424242", "12/34", "987");
        var input = new PaymentMethodInput.Card("4242424242424242", 12, 2034, "987");
        assertThat(form.toString() + input).doesNotContain("4242", "987");
    }
}
