package io.tender.secrets;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/** HMAC-SHA256 under a key derived for one purpose: stands in for a secret wherever it must be looked up. */
public final class KeyedHash {

    private final SecretKeySpec key;

    public KeyedHash(MasterKey masterKey, String purpose) {
        this.key = new SecretKeySpec(masterKey.derive(purpose), "HmacSHA256");
    }

    public byte[] of(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(secret.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
