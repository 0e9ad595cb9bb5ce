package io.tender.auth;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Spec "Authentication" rule 2: the kind of a key is told by its prefix. */
class KeyKindTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "sk_test_0123456789abcdef, SK_TEST, TEST, true",
            "pk_test_0123456789abcdef, PK_TEST, TEST, false",
            "sk_live_0123456789abcdef, SK_LIVE, LIVE, true",
            "pk_live_0123456789abcdef, PK_LIVE, LIVE, false",
            // The spec's live prefixes are plain sk_ and pk_.
            "sk_0123456789abcdef, SK_LIVE, LIVE, true",
            "pk_0123456789abcdef, PK_LIVE, LIVE, false",
            // sk_test without its underscore is not a test key.
            "sk_testing0123456789, SK_LIVE, LIVE, true"})
    void thePrefixTellsTheKindAndMode(String key, KeyKind kind, Mode mode, boolean secret) {
        assertThat(KeyKind.of(key)).contains(kind);
        assertThat(kind.mode()).isEqualTo(mode);
        assertThat(kind.secret()).isEqualTo(secret);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "sk", "SK_TEST_0123", "rk_test_0123", "test_sk_0123", " sk_test_0123", "whsec_0123"})
    void anythingElseIsNoKey(String key) {
        assertThat(KeyKind.of(key)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SK_TEST, sk_test_, sk_test", "PK_TEST, pk_test_, pk_test", "SK_LIVE, sk_, sk_live", "PK_LIVE, pk_, pk_live"})
    void eachKindHasItsSpecPrefixAndWireName(KeyKind kind, String specPrefix, String wire) {
        assertThat(kind.specPrefix()).isEqualTo(specPrefix);
        assertThat(kind.wire()).isEqualTo(wire);
        assertThat(KeyKind.fromWire(wire)).isEqualTo(kind);
        assertThat(KeyKind.of(kind.prefix() + "0123456789abcdef")).contains(kind);
    }
}
