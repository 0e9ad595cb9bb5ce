package io.tender.webhook;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookSigningException;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Standard Webhooks signatures (decisions §5): {@code v1,<base64 HMAC-SHA256 of "id.timestamp.body">} under each
 * valid secret, separated by spaces, signed with the specification's own Java library. Public for {@code tender listen}
 * (io.tender.listen), which signs what it forwards to a developer's machine exactly as a delivery is signed.
 */
public final class WebhookSigner {

    public static final String SECRET_PREFIX = "whsec_";
    /** The {@code User-Agent} of every webhook request. */
    public static final String USER_AGENT = "Tender-Webhooks/1";
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSigner() {
    }

    /** A fresh secret: {@code whsec_} and 32 random bytes in base64. */
    public static String newSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /** The {@code webhook-signature} header value for this message under every given secret. */
    public static String signature(String messageId, long timestampSeconds, byte[] body, List<String> secrets) {
        String payload = new String(body, StandardCharsets.UTF_8);
        return secrets.stream().map(secret -> {
            try {
                return new Webhook(secret).sign(messageId, timestampSeconds, payload);
            } catch (WebhookSigningException | EmptyWebhookSecretException e) {
                throw new IllegalStateException("signing failed", e);
            }
        }).collect(Collectors.joining(" "));
    }
}
