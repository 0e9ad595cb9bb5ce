package io.tender.webhook;

import io.tender.apiversion.ApiVersions;
import io.tender.apiversion.PaymentProgress;
import io.tender.apiversion.VersionShapes;
import io.tender.auth.Mode;
import io.tender.outbox.OutboxEvent;
import io.tender.support.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One webhook attempt against a receiver on loopback, with a scripted DNS: the SSRF rule holds, in both modes, for
 * the address the connection actually goes to, not only for the answer seen when the URL was accepted; and the
 * request is what receivers are told to expect. Tests that reach the loopback receiver on purpose use the
 * developer's setting ({@code allowPrivate}), which lifts the rule for test mode only.
 */
class WebhookSenderTest {

    private static final InetAddress PUBLIC = address("203.0.113.10");
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final WebhookReceiver receiver = WebhookReceiver.start();
    private WebhookSender sender;

    @AfterEach
    void stop() {
        if (sender != null) {
            sender.close();
        }
        receiver.close();
    }

    @Test
    void aLiveHostThatRebindsToLoopbackAfterItsUrlWasAcceptedIsNeverConnectedTo() {
        // When the URL is set the host resolves to a public address; by the time of the attempt, to loopback.
        AtomicInteger lookups = new AtomicInteger();
        var settings = settings(false);
        var targets = new WebhookTargets(settings, host -> new InetAddress[]{lookups.getAndIncrement() == 0 ? PUBLIC : LOOPBACK});
        String url = "https://hooks.merchant.example:" + port() + "/hook";
        assertThat(targets.check(url, Mode.LIVE)).as("the URL is accepted while it resolves to a public address").isEmpty();
        sender = new WebhookSender(targets, new VersionShapes(PaymentProgress.NONE), settings);

        var result = sender.send(endpoint(Mode.LIVE, url), event());

        assertThat(lookups.get()).as("the connection resolved the host again").isEqualTo(2);
        assertThat(result.succeeded()).isFalse();
        assertThat(result.responseStatus()).isNull();
        assertThat(result.error()).isEqualTo("address_not_allowed");
        assertThat(receiver.received()).as("nothing reached the internal address").isEmpty();
    }

    @Test
    void aHostThatDoesNotResolveIsAConnectionFailureNotARefusal() {
        sender = sender(false, host -> {
            throw new UnknownHostException(host);
        });

        var result = sender.send(endpoint(Mode.LIVE, "https://gone.merchant.example/hook"), event());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error()).isEqualTo("connection_failed");
    }

    @Test
    void aTestModeEndpointOnLoopbackGetsTheSignedEventAsPlainJsonFromTender() {
        sender = sender(true, host -> new InetAddress[]{LOOPBACK});
        WebhookEndpoint endpoint = endpoint(Mode.TEST, "http://receiver.local.example:" + port() + "/hook");

        var result = sender.send(endpoint, event());

        assertThat(result.succeeded()).isTrue();
        assertThat(result.responseStatus()).isEqualTo(200);
        assertThat(receiver.received()).singleElement().satisfies(r -> {
            assertThat(r.signatureValid()).isTrue();
            assertThat(r.webhookId()).isEqualTo("evt_0000000000000000000000a1");
            assertThat(r.type()).isEqualTo("redemption.created");
            assertThat(r.contentType()).isEqualTo("application/json");
            assertThat(r.userAgent()).isEqualTo(WebhookSender.USER_AGENT);
        });
    }

    @Test
    void aRedirectIsAnAnswerThatFailsTheAttemptNeverFollowed() {
        sender = sender(true, host -> new InetAddress[]{LOOPBACK});
        receiver.respond(r -> 307);

        var result = sender.send(endpoint(Mode.TEST, "http://receiver.local.example:" + port() + "/hook"), event());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.responseStatus()).isEqualTo(307);
        assertThat(receiver.received()).hasSize(1);
    }

    @Test
    void anAnswerSlowerThanTheTimeoutIsATimeout() {
        sender = sender(true, host -> new InetAddress[]{LOOPBACK});
        receiver.respond(r -> {
            sleep(Duration.ofSeconds(4));
            return 200;
        });

        var result = sender.send(endpoint(Mode.TEST, "http://receiver.local.example:" + port() + "/hook"), event());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error()).isEqualTo("timeout");
        assertThat(result.took()).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aTestHostThatRebindsToLoopbackAfterItsUrlWasAcceptedIsNeverConnectedTo() {
        // The same rebinding in test mode, where the address rule holds as well unless a developer lifts it.
        AtomicInteger lookups = new AtomicInteger();
        var settings = settings(false);
        var targets = new WebhookTargets(settings, host -> new InetAddress[]{lookups.getAndIncrement() == 0 ? PUBLIC : LOOPBACK});
        String url = "http://hooks.merchant.example:" + port() + "/hook";
        assertThat(targets.check(url, Mode.TEST)).as("the URL is accepted while it resolves to a public address").isEmpty();
        sender = new WebhookSender(targets, new VersionShapes(PaymentProgress.NONE), settings);

        var result = sender.send(endpoint(Mode.TEST, url), event());

        assertThat(lookups.get()).as("the connection resolved the host again").isEqualTo(2);
        assertThat(result.succeeded()).isFalse();
        assertThat(result.responseStatus()).isNull();
        assertThat(result.error()).isEqualTo("address_not_allowed");
        assertThat(receiver.received()).as("nothing reached the internal address").isEmpty();
    }

    @Test
    void theDevelopersSettingNeverLetsALiveEndpointConnectToAnInternalAddress() {
        sender = sender(true, host -> new InetAddress[]{LOOPBACK});
        WebhookEndpoint endpoint = endpoint(Mode.LIVE, "https://hooks.internal.example:" + port() + "/hook");

        var result = sender.send(endpoint, event());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error()).isEqualTo("address_not_allowed");
        assertThat(receiver.received()).isEmpty();
    }

    private static WebhookSettings settings(boolean allowPrivate) {
        return new WebhookSettings(List.of(Duration.ofSeconds(5)), 0.1, Duration.ofSeconds(2), 4, 4, 2, 16,
                Duration.ofSeconds(1), allowPrivate);
    }

    private WebhookSender sender(boolean allowPrivate, WebhookTargets.HostLookup lookup) {
        var settings = settings(allowPrivate);
        return new WebhookSender(new WebhookTargets(settings, lookup), new VersionShapes(PaymentProgress.NONE), settings);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private WebhookEndpoint endpoint(Mode mode, String url) {
        String secret = WebhookSigner.newSecret();
        receiver.secrets(secret);
        Instant now = Instant.now();
        return new WebhookEndpoint("we_0000000000000000000000a1", "mer_test", mode, url, null, List.of("*"),
                WebhookEndpoint.Status.ENABLED, null, ApiVersions.NEWEST, secret, null, null, now, now);
    }

    private int port() {
        return URI.create(receiver.url("/")).getPort();
    }

    private static OutboxEvent event() {
        return new OutboxEvent("evt_0000000000000000000000a1", 1, "redemption", "rdm_0000000000000000000000a1",
                "redemption.created", "mer_test", Mode.TEST, Instant.now(),
                "{\"specversion\":\"1.0\",\"data\":{\"id\":\"rdm_0000000000000000000000a1\",\"status\":\"draft\"}}");
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
