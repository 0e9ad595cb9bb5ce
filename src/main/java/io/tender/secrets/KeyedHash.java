package io.tender.secrets;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * HMAC-SHA256 under a key kept for one purpose: stands in for a secret wherever it must be looked up. Made by
 * {@link HashKeys#hash}, so that the key stays the same across master key rotations.
 */
public final class KeyedHash {

    /** Initialised once; each hash works on a clone (a Mac is not thread-safe, and cloning skips provider lookup and key setup). */
    private final Mac prototype;

    KeyedHash(byte[] key) {
        try {
            this.prototype = Mac.getInstance("HmacSHA256");
            this.prototype.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public byte[] of(String secret) {
        try {
            Mac mac = (Mac) prototype.clone();
            return mac.doFinal(secret.getBytes(StandardCharsets.UTF_8));
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }
}
