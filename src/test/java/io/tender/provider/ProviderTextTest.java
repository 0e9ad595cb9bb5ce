package io.tender.provider;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Provider text stripped of the voucher secret (decisions §9): as sent, in any case, or printed in groups. */
class ProviderTextTest {

    private static final String PIN = "4000123412349838";
    private static final String MASKED = "************9838";
    private static final VoucherSource ONE_VOUCHER = new VoucherSource.OneVoucherPin(PIN);

    @Test
    void thePinIsMaskedAsSentAndWhenPrintedInGroups() {
        ProviderText text = ProviderText.of(ONE_VOUCHER);

        assertThat(text.strip("PIN " + PIN + " is blocked")).isEqualTo("PIN " + MASKED + " is blocked");
        assertThat(text.strip("4000 1234 1234 9838 / 4000-1234-1234-9838 / 4000.1234.1234.9838"))
                .isEqualTo(MASKED + " / " + MASKED + " / " + MASKED);
        assertThat(text.strip("x" + PIN + PIN + "y")).isEqualTo("x" + MASKED + MASKED + "y");
        // Other numbers, and a different PIN, stay as they are.
        assertThat(text.strip("serial 400012341234 amount 9838 other 4000123412349839"))
                .isEqualTo("serial 400012341234 amount 9838 other 4000123412349839");
        assertThat(text.strip((String) null)).isNull();
    }

    @Test
    void aTokenIsMaskedWhateverItsCase() {
        ProviderText text = ProviderText.of(new VoucherSource.ProviderCToken("Tab12cd34ef56"));

        assertThat(text.strip("token TAB12CD34EF56 and tab12cd34ef56")).isEqualTo("token *********ef56 and *********ef56");
    }

    @Test
    void aShortSecretIsMaskedOnlyAsSent() {
        ProviderText text = ProviderText.of(new VoucherSource.OttVoucher("A1-2", "+27821234567"));

        assertThat(text.strip("pin A1-2, not A 1 2")).isEqualTo("pin **-2, not A 1 2");
    }

    @Test
    void everyTextOfAnApprovalIsStrippedButTheChangeVoucherPinItself() {
        String changePin = "5000123412344321";
        var approved = new ProviderOutcome.Approved(2500, "ZAR",
                Map.of("receipt", "for " + PIN, "nested", Map.of("lines", List.of("pin " + PIN, 7)), "new", changePin),
                new ChangeVoucher.WithReference(changePin, "SN" + PIN, "ref " + changePin, null, PIN, "Voucher",
                        "Use " + changePin, null, "Your old PIN " + PIN + " is spent"));

        var stripped = (ProviderOutcome.Approved) ProviderText.redacted(approved, ONE_VOUCHER);

        assertThat(stripped.amount()).isEqualTo(2500);
        assertThat(stripped.reference()).isEqualTo(Map.of("receipt", "for " + MASKED,
                "nested", Map.of("lines", List.of("pin " + MASKED, 7)), "new", "************4321"));
        var change = (ChangeVoucher.WithReference) stripped.changeVoucher();
        assertThat(change.pin()).isEqualTo(changePin);
        assertThat(change.serialNumber()).isEqualTo("SN" + MASKED);
        assertThat(change.reference()).isEqualTo("ref ************4321");
        assertThat(change.barcode()).isEqualTo(MASKED);
        assertThat(change.productInstructions()).isEqualTo("Use ************4321");
        assertThat(change.customerMessage()).isEqualTo("Your old PIN " + MASKED + " is spent");
    }

    @Test
    void declinesUnknownsAndLookupsAreStrippedToo() {
        assertThat(ProviderText.redacted(new ProviderOutcome.Declined("one_voucher.2403", "PIN " + PIN + " blocked"), ONE_VOUCHER))
                .isEqualTo(new ProviderOutcome.Declined("one_voucher.2403", "PIN " + MASKED + " blocked"));
        assertThat(ProviderText.redacted(new ProviderOutcome.Unknown("one_voucher.pending", PIN), ONE_VOUCHER))
                .isEqualTo(new ProviderOutcome.Unknown("one_voucher.pending", MASKED));
        assertThat(ProviderText.redacted(new VoucherProvider.Lookup.Balance(100, "ZAR", Map.of("holder", PIN)), ONE_VOUCHER))
                .isEqualTo(new VoucherProvider.Lookup.Balance(100, "ZAR", Map.of("holder", MASKED)));
        assertThat(ProviderText.redacted(new VoucherProvider.Lookup.Refused("x", PIN + "!"), ONE_VOUCHER))
                .isEqualTo(new VoucherProvider.Lookup.Refused("x", MASKED + "!"));
    }
}
