package io.tender.webhook;

import io.tender.support.StandardWebhooksVerifier;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The service's signatures against a verifier written from the Standard Webhooks specification. */
class WebhookSignatureTest {

    private static final byte[] BODY = "{\"id\":\"evt_1\",\"type\":\"redemption.confirmed\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void theIndependentVerifierReproducesTheSpecificationsPublishedExample() {
        // The example secret, message and signature published with the Standard Webhooks reference libraries.
        String signature = StandardWebhooksVerifier.sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));
        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void aSignatureByTheServiceVerifiesWithTheIndependentVerifier() {
        String secret = WebhookSigner.newSecret();
        long now = Instant.now().getEpochSecond();
        String header = WebhookSigner.signature("evt_1", now, BODY, List.of(secret));

        assertThat(secret).matches("^whsec_[A-Za-z0-9+/]{43}=$");
        assertThat(header).matches("^v1,[A-Za-z0-9+/]{43}=$");
        assertThat(new StandardWebhooksVerifier(secret).verify("evt_1", Long.toString(now), header, BODY, Instant.now()))
                .isTrue();
    }

    @Test
    void aChangedBodyIdTimestampOrSecretDoesNotVerify() {
        String secret = WebhookSigner.newSecret();
        long now = Instant.now().getEpochSecond();
        String header = WebhookSigner.signature("evt_1", now, BODY, List.of(secret));
        var verifier = new StandardWebhooksVerifier(secret);

        assertThat(verifier.verify("evt_1", Long.toString(now), header, "{}".getBytes(StandardCharsets.UTF_8), Instant.now())).isFalse();
        assertThat(verifier.verify("evt_2", Long.toString(now), header, BODY, Instant.now())).isFalse();
        assertThat(verifier.verify("evt_1", Long.toString(now + 1), header, BODY, Instant.now())).isFalse();
        assertThat(new StandardWebhooksVerifier(WebhookSigner.newSecret())
                .verify("evt_1", Long.toString(now), header, BODY, Instant.now())).isFalse();
    }

    @Test
    void aStaleTimestampIsRefusedEvenWithAGoodSignature() {
        String secret = WebhookSigner.newSecret();
        long old = Instant.now().minusSeconds(600).getEpochSecond();
        String header = WebhookSigner.signature("evt_1", old, BODY, List.of(secret));

        assertThat(new StandardWebhooksVerifier(secret).verify("evt_1", Long.toString(old), header, BODY, Instant.now()))
                .isFalse();
    }

    @Test
    void duringARotationEachSecretAloneVerifiesTheMessage() {
        String newSecret = WebhookSigner.newSecret();
        String oldSecret = WebhookSigner.newSecret();
        long now = Instant.now().getEpochSecond();
        String header = WebhookSigner.signature("evt_1", now, BODY, List.of(newSecret, oldSecret));

        assertThat(header.split(" ")).hasSize(2).allMatch(s -> s.startsWith("v1,"));
        assertThat(new StandardWebhooksVerifier(newSecret).verify("evt_1", Long.toString(now), header, BODY, Instant.now())).isTrue();
        assertThat(new StandardWebhooksVerifier(oldSecret).verify("evt_1", Long.toString(now), header, BODY, Instant.now())).isTrue();
    }
}
