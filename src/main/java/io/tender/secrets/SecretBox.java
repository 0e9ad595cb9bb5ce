package io.tender.secrets;

import org.springframework.stereotype.Component;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Seals secrets at rest with AES-256-GCM. The context (for example the redemption id and field) is bound as
 * associated data, so a sealed value copied into another row or field does not open.
 * <p>
 * Format 2 (what {@link #seal} writes): byte 2, the 4-byte id of the master key it was sealed under, 12-byte nonce,
 * ciphertext with its 16-byte tag. Format 1 (written before key rotation existed, still read): byte 1, nonce,
 * ciphertext and tag, under whichever key opens it. The key id lets {@link Resealer} find, in SQL, every value not
 * yet under the current key: its first {@link #CURRENT_PREFIX_BYTES} bytes differ from {@link #currentPrefix()}.
 */
@Component
public class SecretBox {

    private static final byte LEGACY_FORMAT = 1;
    private static final byte FORMAT = 2;
    private static final int KEY_ID_BYTES = 4;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BYTES = 16;
    private static final int HEADER = 1 + KEY_ID_BYTES;
    static final int CURRENT_PREFIX_BYTES = HEADER;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One master key's AES key and its id (the first bytes of a hash derived from it: names it, reveals nothing). */
    private record Key(SecretKey aes, byte[] id) {
        static Key of(byte[] aes, byte[] idSource) {
            return new Key(new SecretKeySpec(aes, "AES"), Arrays.copyOf(idSource, KEY_ID_BYTES));
        }
    }

    private final Key current;
    /** Current first, then the one being rotated out, if any. */
    private final List<Key> readable = new ArrayList<>();
    /**
     * Cipher objects to reuse: looking one up costs more than the encryption of a short value. A cipher is used by
     * one thread at a time and always initialised afresh (key and nonce) before use; the pool holds at most as many
     * as were ever in use at once.
     */
    private final Queue<Cipher> ciphers = new ConcurrentLinkedQueue<>();

    SecretBox(MasterKey masterKey) {
        this.current = Key.of(masterKey.derive("aes-gcm/v1"), masterKey.derive("key-id"));
        readable.add(current);
        masterKey.deriveFromPrevious("aes-gcm/v1")
                .ifPresent(aes -> readable.add(Key.of(aes, masterKey.deriveFromPrevious("key-id").orElseThrow())));
    }

    public byte[] seal(byte[] plaintext, String context) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher cipher = cipher();
            cipher.init(Cipher.ENCRYPT_MODE, current.aes(), new GCMParameterSpec(128, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = new byte[HEADER + NONCE_BYTES + cipher.getOutputSize(plaintext.length)];
            sealed[0] = FORMAT;
            System.arraycopy(current.id(), 0, sealed, 1, KEY_ID_BYTES);
            System.arraycopy(nonce, 0, sealed, HEADER, NONCE_BYTES);
            int length = cipher.doFinal(plaintext, 0, plaintext.length, sealed, HEADER + NONCE_BYTES);
            ciphers.offer(cipher);
            return length == sealed.length - HEADER - NONCE_BYTES ? sealed : Arrays.copyOf(sealed, HEADER + NONCE_BYTES + length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("sealing failed", e);
        }
    }

    /** Opens a value sealed under the current master key or the previous one (in either format). */
    public byte[] open(byte[] box, String context) {
        if (box.length >= HEADER + NONCE_BYTES + TAG_BYTES && box[0] == FORMAT) {
            byte[] id = Arrays.copyOfRange(box, 1, HEADER);
            Key key = readable.stream().filter(k -> Arrays.equals(k.id(), id)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("a sealed value is under master key "
                            + HexFormat.of().formatHex(id) + ", which this instance does not have (TENDER_MASTER_KEY, "
                            + "TENDER_MASTER_KEY_PREVIOUS)"));
            return open(key, box, HEADER, context);
        }
        if (box.length >= 1 + NONCE_BYTES + TAG_BYTES && box[0] == LEGACY_FORMAT) {
            // No key id: the current key, then the previous one.
            for (Key key : readable) {
                try {
                    return open(key, box, 1, context);
                } catch (IllegalStateException tryNext) {
                    // the next key, if any
                }
            }
            throw didNotOpen();
        }
        throw new IllegalStateException("not a sealed value of this service");
    }

    /** Whether the value is sealed in the current format under the current master key (nothing to re-seal). */
    public boolean isCurrent(byte[] box) {
        return box.length >= HEADER && Arrays.equals(box, 0, HEADER, currentPrefix(), 0, HEADER);
    }

    /** The first bytes of every value sealed now: format and current key id. */
    public byte[] currentPrefix() {
        byte[] prefix = new byte[HEADER];
        prefix[0] = FORMAT;
        System.arraycopy(current.id(), 0, prefix, 1, KEY_ID_BYTES);
        return prefix;
    }

    private byte[] open(Key key, byte[] box, int nonceAt, String context) {
        try {
            Cipher cipher = cipher();
            cipher.init(Cipher.DECRYPT_MODE, key.aes(), new GCMParameterSpec(128, box, nonceAt, NONCE_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            int from = nonceAt + NONCE_BYTES;
            byte[] opened = cipher.doFinal(box, from, box.length - from);
            ciphers.offer(cipher);
            return opened;
        } catch (GeneralSecurityException e) {
            // No detail: the message must not help anyone, and must not carry the value. A cipher that failed is
            // not put back.
            throw didNotOpen();
        }
    }

    private static IllegalStateException didNotOpen() {
        return new IllegalStateException("a sealed value did not open (wrong master key or tampered data)");
    }

    private Cipher cipher() throws GeneralSecurityException {
        Cipher pooled = ciphers.poll();
        return pooled != null ? pooled : Cipher.getInstance("AES/GCM/NoPadding");
    }
}
