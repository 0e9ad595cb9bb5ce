package io.tender.secrets;

import org.springframework.stereotype.Component;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

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
    /**
     * Cipher objects to reuse: looking one up costs more than the encryption of a short value. A cipher is used by
     * one thread at a time and always initialised afresh (key and nonce) before use; the pool holds at most as many
     * as were ever in use at once.
     */
    private final Queue<Cipher> ciphers = new ConcurrentLinkedQueue<>();

    SecretBox(MasterKey masterKey) {
        this.key = new SecretKeySpec(masterKey.derive("aes-gcm/v1"), "AES");
    }

    public byte[] seal(byte[] plaintext, String context) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher cipher = cipher();
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = new byte[1 + NONCE_BYTES + cipher.getOutputSize(plaintext.length)];
            sealed[0] = VERSION;
            System.arraycopy(nonce, 0, sealed, 1, NONCE_BYTES);
            int length = cipher.doFinal(plaintext, 0, plaintext.length, sealed, 1 + NONCE_BYTES);
            ciphers.offer(cipher);
            return length == sealed.length - 1 - NONCE_BYTES ? sealed : Arrays.copyOf(sealed, 1 + NONCE_BYTES + length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("sealing failed", e);
        }
    }

    public byte[] open(byte[] box, String context) {
        if (box.length < 1 + NONCE_BYTES + 16 || box[0] != VERSION) {
            throw new IllegalStateException("not a sealed value of this service");
        }
        try {
            Cipher cipher = cipher();
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, box, 1, NONCE_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] opened = cipher.doFinal(box, 1 + NONCE_BYTES, box.length - 1 - NONCE_BYTES);
            ciphers.offer(cipher);
            return opened;
        } catch (GeneralSecurityException e) {
            // No detail: the message must not help anyone, and must not carry the value. A cipher that failed is
            // not put back.
            throw new IllegalStateException("a sealed value did not open (wrong master key or tampered data)");
        }
    }

    private Cipher cipher() throws GeneralSecurityException {
        Cipher pooled = ciphers.poll();
        return pooled != null ? pooled : Cipher.getInstance("AES/GCM/NoPadding");
    }
}
