package io.tender.webhook;

import io.tender.auth.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The address rule for endpoint URLs (decisions §9), one for every mode. IP literals and a scripted DNS, so nothing
 * here asks a real resolver about anything but {@code localhost} or sends a packet.
 */
class WebhookTargetsTest {

    private static final InetAddress PUBLIC = address("203.0.113.10");

    static WebhookSettings settings(boolean allowPrivate) {
        return new WebhookSettings(List.of(Duration.ofSeconds(5)), 0.1, Duration.ofSeconds(15), 16, 4, 2, 16,
                Duration.ofSeconds(1), allowPrivate);
    }

    private static WebhookTargets targets(boolean allowPrivate) {
        return new WebhookTargets(settings(allowPrivate), host -> switch (host) {
            case "localhost" -> new InetAddress[]{InetAddress.getLoopbackAddress()};
            case "private.merchant.example" -> new InetAddress[]{PUBLIC, address("10.1.2.3")};
            case "metadata.merchant.example" -> new InetAddress[]{address("fd00:ec2::254")};
            default -> new InetAddress[]{PUBLIC};
        });
    }

    /** Every kind of internal address, and the other forms it can be written in. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            loopback                     | 127.0.0.1
            loopback                     | 127.255.255.254
            loopback                     | ::1
            unspecified                  | 0.0.0.0
            unspecified                  | ::
            this network                 | 0.1.2.3
            private                      | 10.0.0.1
            private                      | 172.16.5.4
            private                      | 172.31.255.255
            private                      | 192.168.1.1
            link-local (cloud metadata)  | 169.254.169.254
            link-local                   | fe80::1
            link-local                   | febf:ffff::1
            site-local (deprecated)      | fec0::1
            unique-local                 | fc00::1
            unique-local (AWS metadata)  | fd00:ec2::254
            carrier-grade NAT            | 100.64.0.1
            carrier-grade NAT            | 100.127.255.254
            IETF protocol assignments    | 192.0.0.170
            benchmarking                 | 198.18.0.1
            multicast                    | 224.0.0.1
            multicast                    | 239.255.255.250
            multicast                    | ff02::1
            multicast                    | ff05::1:3
            reserved                     | 240.0.0.1
            broadcast                    | 255.255.255.255
            discard-only                 | 100::1
            IPv4-mapped loopback         | ::ffff:127.0.0.1
            IPv4-mapped private          | ::ffff:10.0.0.1
            IPv4-mapped metadata         | ::ffff:a9fe:a9fe
            SIIT-translated loopback     | ::ffff:0:7f00:1
            IPv4-compatible loopback     | ::127.0.0.1
            IPv4-compatible private      | ::a00:1
            NAT64 loopback               | 64:ff9b::7f00:1
            NAT64 metadata               | 64:ff9b::169.254.169.254
            NAT64 local-use prefix       | 64:ff9b:1::808:808
            6to4 of loopback             | 2002:7f00:1::1
            6to4 of private              | 2002:c0a8:101::1
            6to4 of metadata             | 2002:a9fe:a9fe::
            6to4 of CGNAT                | 2002:6440:1::
            6to4 of this network         | 2002::1
            Teredo, private client       | 2001:0:4136:e378:8000:63bf:f5ff:fffe
            Teredo, loopback client      | 2001:0:4136:e378:8000:63bf:80ff:fffe
            Teredo, metadata client      | 2001:0:4136:e378::5601:5601
            Teredo, private server       | 2001:0:a00:1:8000:63bf:3fff:fdd2
            Teredo, loopback server      | 2001:0:7f00:1::3fff:fdd2
            """)
    void internalAddressesAreRecognisedInEveryForm(String kind, String literal) {
        assertThat(WebhookTargets.internal(address(literal))).as(kind + " " + literal).isTrue();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            public IPv4                  | 8.8.8.8
            public IPv4                  | 1.1.1.1
            documentation range          | 203.0.113.10
            next to private              | 172.32.0.1
            next to CGNAT                | 100.128.0.1
            next to link-local           | 169.255.0.1
            public IPv6                  | 2001:4860:4860::8888
            IPv4-mapped public           | ::ffff:8.8.8.8
            NAT64 public                 | 64:ff9b::808:808
            6to4 of public               | 2002:808:808::1
            Teredo, both public          | 2001:0:4136:e378:8000:63bf:3fff:fdd2
            """)
    void publicAddressesAreNot(String kind, String literal) {
        assertThat(WebhookTargets.internal(address(literal))).as(kind + " " + literal).isFalse();
    }

    /** The numeric host forms browsers, curl and the C resolver read as IPv4 addresses (WHATWG, inet_aton). */
    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            2130706433     | 127.0.0.1
            0x7f000001     | 127.0.0.1
            0X7F000001     | 127.0.0.1
            017700000001   | 127.0.0.1
            0x7f.1         | 127.0.0.1
            127.1          | 127.0.0.1
            0177.0.0.1     | 127.0.0.1
            0x7f.0.0.1     | 127.0.0.1
            127.0.1        | 127.0.0.1
            10.0x10.0x101  | 10.16.1.1
            169.254.43518  | 169.254.169.254
            0              | 0.0.0.0
            127.0.0.1.     | 127.0.0.1
            """)
    void numericHostFormsAreReadAsTheAddressesOtherClientsConnectTo(String host, String expected) throws Exception {
        assertThat(WebhookTargets.isNumeric(host)).isTrue();
        assertThat(WebhookTargets.numericIpv4(host)).isEqualTo(address(expected));
    }

    /** Each internal form as a URL: refused in test mode (without the developer's setting) and in live mode. */
    @ParameterizedTest
    @ValueSource(strings = {"https://127.0.0.1/hook", "https://localhost/hook", "https://LOCALHOST:8443/hook",
            "https://[::1]/hook", "https://0.0.0.0/", "https://[::]/", "https://2130706433/", "https://0x7f000001/",
            "https://017700000001/", "https://0177.0.0.1/", "https://0x7f.1/", "https://127.1/",
            "https://10.1.2.3:8443/hook", "https://172.16.0.1/", "https://192.168.0.10/", "https://100.64.0.1/",
            "https://169.254.169.254/latest/meta-data", "https://[fe80::1]/", "https://[fe80::1%25eth0]/",
            "https://[fc00::1]/", "https://[fd00:ec2::254]/", "https://224.0.0.1/", "https://[ff02::1]/",
            "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/", "https://[0:0:0:0:0:ffff:a00:1]/",
            "https://[::127.0.0.1]/", "https://[64:ff9b::7f00:1]/", "https://[2002:7f00:1::1]/",
            "https://[2002:a9fe:a9fe::]/", "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",
            "https://[2001:0:a00:1:8000:63bf:3fff:fdd2]/", "https://private.merchant.example/hook",
            "https://metadata.merchant.example/"})
    void internalTargetsAreRefusedInEveryModeWithoutTheDevelopersSetting(String url) {
        for (Mode mode : Mode.values()) {
            assertThat(targets(false).check(url, mode)).as(mode + " " + url).isPresent();
        }
        assertThat(targets(true).check(url, Mode.LIVE)).as("live, even with the developer's setting: " + url)
                .isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://127.0.0.1/hook", "https://10.1.2.3:8443/hook", "https://[::1]/hook",
            "https://169.254.169.254/latest/meta-data", "https://[::ffff:192.168.0.1]/", "https://[2002:7f00:1::1]/"})
    void internalTargetsAreRefusedWithAMessageThatNamesTheRule(String url) {
        assertThat(targets(false).check(url, Mode.TEST)).hasValueSatisfying(
                r -> assertThat(r.reason()).isEqualTo(WebhookTargets.INTERNAL));
    }

    @Test
    void theDevelopersSettingLetsTestModeReachLoopbackAndPrivateAddresses() {
        assertThat(targets(true).check("http://127.0.0.1:9999/hook", Mode.TEST)).isEmpty();
        assertThat(targets(true).check("http://localhost:9999/hook", Mode.TEST)).isEmpty();
        assertThat(targets(true).check("http://10.1.2.3/hook", Mode.TEST)).isEmpty();
        assertThat(targets(false).check("http://127.0.0.1:9999/hook", Mode.TEST)).isPresent();
    }

    @Test
    void theDevelopersSettingNeverLiftsTheRuleForLiveMode() {
        assertThat(targets(true).check("https://10.1.2.3/hook", Mode.LIVE))
                .hasValueSatisfying(r -> assertThat(r.reason()).isEqualTo(WebhookTargets.INTERNAL));
        assertThat(targets(true).check("https://localhost/hook", Mode.LIVE)).isPresent();
    }

    @Test
    void publicTargetsAreAcceptedInBothModes() {
        for (String url : List.of("https://203.0.113.10/hook", "https://hooks.merchant.example/tender",
                "https://[2001:4860:4860::8888]/hook", "https://[2002:808:808::1]/")) {
            assertThat(targets(false).check(url, Mode.LIVE)).as(url).isEmpty();
            assertThat(targets(false).check(url, Mode.TEST)).as(url).isEmpty();
        }
        assertThat(targets(false).check("http://hooks.merchant.example/tender", Mode.TEST)).isEmpty();
    }

    @Test
    void aPublicAddressMustBeWrittenAsFourDecimalNumbers() {
        // 134744072 is 8.8.8.8: clients disagree on such forms, so only one spelling is accepted.
        assertThat(targets(false).check("https://134744072/", Mode.LIVE)).hasValueSatisfying(
                r -> assertThat(r.reason()).isEqualTo("must write an IPv4 address as four decimal numbers"));
    }

    @Test
    void liveModeNeedsHttps() {
        assertThat(targets(false).check("http://203.0.113.10/hook", Mode.LIVE))
                .hasValueSatisfying(r -> assertThat(r.reason()).isEqualTo("must use https in live mode"));
        assertThat(targets(false).check("https://203.0.113.10/hook", Mode.LIVE)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a url", "ftp://example.com/x", "/relative/path", "https://user:pw@example.com/",
            "https://example.com/#fragment", "mailto:ops@example.com", "https://my_host/"})
    void malformedOrUnsuitableUrlsAreRefusedInAnyMode(String url) {
        assertThat(targets(true).check(url, Mode.TEST)).isPresent();
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
