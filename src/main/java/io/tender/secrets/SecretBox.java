package io.tender.secrets;

import org.springframework.stereotype.Component;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

/**
 * Seals secrets at rest with AES-256-GCM. The context (for example the redemption id and field) is bound as
 * associated data, so a sealed value copied into another row or field does not open.
 * Format: version byte 1, 12-byte nonce, ciphertext with its 16-byte tag.
 */
@Component
public class SecretBox {

    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;

    SecretBox(MasterKey masterKey) {
        this.key = new SecretKeySpec(masterKey.derive("aes-gcm/v1"), "AES");
    }

    public byte[] seal(byte[] plaintext, String context) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext);
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("sealing failed", e);
        }
    }

    public byte[] open(byte[] box, String context) {
        if (box.length < 1 + NONCE_BYTES + 16 || box[0] != VERSION) {
            throw new IllegalStateException("not a sealed value of this service");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, box, 1, NONCE_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(box, 1 + NONCE_BYTES, box.length - 1 - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            // No detail: the message must not help anyone, and must not carry the value.
            throw new IllegalStateException("a sealed value did not open (wrong master key or tampered data)");
        }
    }
}
