package io.tender.provider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Decisions §1: secrets are shown masked to their last four characters, as in {@code ************9838}. */
class MaskingTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "4000123412349838, ************9838",
            "T12345678901234567, **************4567",
            "abcdefgh, ****efgh",
            // Short secrets show at most half, so that a mask never gives most of a secret away.
            "abcdef, ***def",
            "abcd, **cd",
            "abc, **c",
            "a, *"})
    void allButTheLastFourAreStarred(String secret, String masked) {
        assertThat(Masking.mask(secret)).isEqualTo(masked).hasSameSizeAs(secret);
    }

    @Test
    void nothingStaysNothing() {
        assertThat(Masking.mask(null)).isNull();
        assertThat(Masking.mask("")).isEmpty();
    }

    @Test
    void sourcesShowOnlyTheMaskAndThePhoneNumber() {
        var ott = VoucherSource.of(RedemptionType.OTT, Map.of("pin", "9876543210", "phone_number", "+27821234567"));
        assertThat(ott.masked()).containsExactly(Map.entry("pin", "******3210"), Map.entry("phone_number", "+27821234567"));
        assertThat(ott.toString()).doesNotContain("9876543210");
        var token = VoucherSource.of(RedemptionType.PROVIDER_C, Map.of("token", "T0000111122223333"));
        assertThat(token.masked()).containsExactly(Map.entry("token", "*************3333"));
        assertThat(token.toString()).doesNotContain("T0000111122223333");
        var pin = VoucherSource.of(RedemptionType.ONE_VOUCHER, Map.of("pin", "4000123412349838"));
        assertThat(pin.toString()).doesNotContain("4000123412349838").contains("9838");
    }

    @Test
    void changeVouchersMaskTheirPinForEventsAndNeverPrintIt() {
        var change = new ChangeVoucher.WithAmount("4000999988887777", "123456789012", 7500L, "2027-05-20 00:00:00", "ACTIVE");
        assertThat(change.masked().pin()).isEqualTo("************7777");
        assertThat(change.masked().serialNumber()).isEqualTo("123456789012");
        assertThat(change.toString()).doesNotContain("4000999988887777");
        var reference = new ChangeVoucher.WithReference("12345678901234567897", "1", "PC1", "2030-01-31", null,
                "Change voucher", null, null, "Thank you");
        assertThat(reference.masked().pin()).isEqualTo("****************7897");
        assertThat(reference.toString()).doesNotContain("12345678901234567897");
    }
}
