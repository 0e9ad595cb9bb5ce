package io.tender.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TENDER_BOOTSTRAP_KEYS: merchant:key pairs, strictly checked, and a bad entry never echoed. */
class BootstrapKeysTest {

    private static final String TEST_KEY = "sk_test_0123456789abcdef0123456789abcdef";
    private static final String LIVE_KEY = "sk_live_fedcba9876543210fedcba9876543210";

    @Test
    void aListOfMerchantKeyPairsIsRead() {
        assertThat(BootstrapKeys.parse("acme:" + TEST_KEY + ", globex-2 : " + LIVE_KEY + ",acme:pk_test_0123456789abcdef01"))
                .containsExactly(new BootstrapKeys.Entry("acme", TEST_KEY), new BootstrapKeys.Entry("globex-2", LIVE_KEY),
                        new BootstrapKeys.Entry("acme", "pk_test_0123456789abcdef01"));
    }

    @Test
    void nothingConfiguredIsNoEntries() {
        assertThat(BootstrapKeys.parse(null)).isEmpty();
        assertThat(BootstrapKeys.parse("")).isEmpty();
        assertThat(BootstrapKeys.parse("   ")).isEmpty();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {
            "acme" + TEST_KEY,                       // no colon
            "Acme:" + TEST_KEY,                      // upper-case merchant
            ":" + TEST_KEY,                          // no merchant
            "acme corp:" + TEST_KEY,                 // space in the merchant
            "acme:rk_test_0123456789abcdef0123",     // unknown prefix
            "acme:sk_test_0123456789abcde",          // 15 characters after the prefix
            "acme:sk_test_0123456789abcdef-0123",    // a character keys do not have
            "acme:"})
    void aMalformedEntryStopsStartUpWithoutEchoingTheKey(String entry) {
        String secretPart = entry.contains(":") ? entry.substring(entry.indexOf(':') + 1) : entry;
        assertThatThrownBy(() -> BootstrapKeys.parse("good:" + TEST_KEY + "," + entry))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("entry 2")
                .satisfies(e -> {
                    if (secretPart.length() > 8) {
                        assertThat(e.getMessage()).doesNotContain(secretPart);
                    }
                    assertThat(e.getMessage()).doesNotContain("0123456789abcde");
                });
    }
}
