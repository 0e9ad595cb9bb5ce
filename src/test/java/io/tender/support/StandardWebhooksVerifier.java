package io.tender.support;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * A receiver's signature check written from the Standard Webhooks specification (standardwebhooks.com), on purpose
 * independent of the library the service signs with: the signed content is {@code id.timestamp.body}, the key is
 * the base64 after {@code whsec_}, the signature HMAC-SHA256 in standard base64, the header a space-separated list
 * of {@code v1,<signature>}, and the timestamp must be within the tolerance of the receiver's clock.
 */
public final class StandardWebhooksVerifier {

    public static final Duration TOLERANCE = Duration.ofMinutes(5);

    private final List<byte[]> keys;

    public StandardWebhooksVerifier(List<String> secrets) {
        this.keys = secrets.stream().map(StandardWebhooksVerifier::key).toList();
    }

    public StandardWebhooksVerifier(String secret) {
        this(List.of(secret));
    }

    private static byte[] key(String secret) {
        if (!secret.startsWith("whsec_")) {
            throw new IllegalArgumentException("a Standard Webhooks secret starts with whsec_");
        }
        return Base64.getDecoder().decode(secret.substring("whsec_".length()));
    }

    /** True if the message carries a fresh timestamp and a v1 signature under one of the secrets. */
    public boolean verify(String id, String timestamp, String signatureHeader, byte[] body, Instant now) {
        if (id == null || timestamp == null || signatureHeader == null) {
            return false;
        }
        long seconds;
        try {
            seconds = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(now.getEpochSecond() - seconds) > TOLERANCE.toSeconds()) {
            return false;
        }
        for (byte[] key : keys) {
            byte[] expected = Base64.getEncoder().encode(hmac(key, id, timestamp, body));
            for (String candidate : signatureHeader.split(" ")) {
                int comma = candidate.indexOf(',');
                if (comma > 0 && candidate.substring(0, comma).equals("v1")
                        && MessageDigest.isEqual(expected, candidate.substring(comma + 1).getBytes(StandardCharsets.US_ASCII))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The v1 signature of a message under one secret, as a sender computes it. */
    public static String sign(String secret, String id, long timestamp, byte[] body) {
        return "v1," + Base64.getEncoder().encodeToString(hmac(key(secret), id, Long.toString(timestamp), body));
    }

    private static byte[] hmac(byte[] key, String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
