package io.tender.webhook;

import io.tender.auth.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** SSRF rules for endpoint URLs. Only IP literals, so nothing here needs DNS or sends a packet. */
class WebhookTargetsTest {

    private static WebhookTargets targets(boolean allowPrivate) {
        return new WebhookTargets(new WebhookSettings(List.of(Duration.ofSeconds(5)), 0.1, Duration.ofSeconds(15),
                16, Duration.ofSeconds(1), allowPrivate));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254",
            "0.0.0.0", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
            "::ffff:10.0.0.1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "ff02::1"})
    void internalAddressesAreRecognised(String literal) throws Exception {
        assertThat(WebhookTargets.internal(InetAddress.getByName(literal))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "203.0.113.10", "2001:4860:4860::8888", "172.32.0.1", "100.128.0.1"})
    void publicAddressesAreNot(String literal) throws Exception {
        assertThat(WebhookTargets.internal(InetAddress.getByName(literal))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://127.0.0.1/hook", "https://10.1.2.3:8443/hook", "https://[::1]/hook",
            "https://169.254.169.254/latest/meta-data", "https://[::ffff:192.168.0.1]/"})
    void liveModeRefusesInternalTargets(String url) {
        assertThat(targets(false).check(url, Mode.LIVE)).hasValueSatisfying(
                r -> assertThat(r.reason()).contains("loopback, private"));
    }

    @Test
    void testModeAcceptsLoopbackSoDevelopersCanReceiveLocally() {
        assertThat(targets(false).check("http://127.0.0.1:9999/hook", Mode.TEST)).isEmpty();
    }

    @Test
    void theOperatorCanAllowInternalTargetsInLiveMode() {
        assertThat(targets(true).check("https://10.1.2.3/hook", Mode.LIVE)).isEmpty();
    }

    @Test
    void liveModeNeedsHttps() {
        assertThat(targets(false).check("http://203.0.113.10/hook", Mode.LIVE))
                .hasValueSatisfying(r -> assertThat(r.reason()).isEqualTo("must use https in live mode"));
        assertThat(targets(false).check("https://203.0.113.10/hook", Mode.LIVE)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a url", "ftp://example.com/x", "/relative/path", "https://user:pw@example.com/",
            "https://example.com/#fragment", "mailto:ops@example.com"})
    void malformedOrUnsuitableUrlsAreRefusedInAnyMode(String url) {
        assertThat(targets(false).check(url, Mode.TEST)).isPresent();
    }
}
