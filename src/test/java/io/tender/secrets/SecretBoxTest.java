package io.tender.secrets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** AES-GCM sealing at rest (decisions §1 "Sensitive values"): round trip, bound to its context, tamper-evident. */
class SecretBoxTest {

    private static final String PIN = "4000123412341237";
    private static final byte[] PLAIN = ("{\"pin\":\"" + PIN + "\"}").getBytes(StandardCharsets.UTF_8);
    private static final String CONTEXT = "redemption-source:rdm_0193f1c2a4b5c6d7e8f9a0b1";

    private static MasterKey key(int seed) {
        return new MasterKey(base64(seed), Path.of("unused"));
    }

    private static String base64(int seed) {
        byte[] bytes = new byte[32];
        bytes[0] = (byte) seed;
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The new key {@code seed}, with {@code previousSeed} as the one being rotated out. */
    private static MasterKey rotating(int seed, int previousSeed) {
        return new MasterKey(base64(seed), base64(previousSeed), Path.of("unused"));
    }

    /** Format 1, as this service sealed before sealed values carried a key id: version 1, nonce, ciphertext, tag. */
    private static byte[] sealInFormatOne(MasterKey master, byte[] plaintext, String context) throws Exception {
        byte[] nonce = new byte[12];
        new java.security.SecureRandom().nextBytes(nonce);
        var cipher = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(javax.crypto.Cipher.ENCRYPT_MODE,
                new javax.crypto.spec.SecretKeySpec(master.derive("aes-gcm/v1"), "AES"),
                new javax.crypto.spec.GCMParameterSpec(128, nonce));
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        byte[] ciphertext = cipher.doFinal(plaintext);
        byte[] sealed = new byte[1 + 12 + ciphertext.length];
        sealed[0] = 1;
        System.arraycopy(nonce, 0, sealed, 1, 12);
        System.arraycopy(ciphertext, 0, sealed, 13, ciphertext.length);
        return sealed;
    }

    @Test
    void duringARotationValuesUnderEitherKeyOpenAndNewOnesAreSealedUnderTheNewKey() {
        byte[] underA = new SecretBox(key(1)).seal(PLAIN, CONTEXT);
        SecretBox rotating = new SecretBox(rotating(2, 1));
        assertThat(rotating.open(underA, CONTEXT)).isEqualTo(PLAIN);
        assertThat(rotating.isCurrent(underA)).isFalse();

        byte[] underB = rotating.seal(PLAIN, CONTEXT);
        assertThat(rotating.isCurrent(underB)).isTrue();
        assertThat(underB).startsWith(rotating.currentPrefix());
        // Once re-sealed, the new key alone opens it; the old one alone no longer does.
        SecretBox onlyB = new SecretBox(key(2));
        assertThat(onlyB.open(underB, CONTEXT)).isEqualTo(PLAIN);
        assertThatThrownBy(() -> new SecretBox(key(1)).open(underB, CONTEXT)).isInstanceOf(IllegalStateException.class);
        // A value still under the old key, opened with the new key alone: the message names the settings, not the value.
        assertThatThrownBy(() -> onlyB.open(underA, CONTEXT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TENDER_MASTER_KEY_PREVIOUS").hasMessageNotContaining(PIN);
    }

    @Test
    void valuesSealedBeforeKeyIdsExistedStillOpenUnderTheCurrentOrThePreviousKey() throws Exception {
        byte[] formatOneUnderA = sealInFormatOne(key(1), PLAIN, CONTEXT);
        assertThat(new SecretBox(key(1)).open(formatOneUnderA, CONTEXT)).isEqualTo(PLAIN);
        SecretBox rotating = new SecretBox(rotating(2, 1));
        assertThat(rotating.open(formatOneUnderA, CONTEXT)).isEqualTo(PLAIN);
        assertThat(rotating.isCurrent(formatOneUnderA)).isFalse();
        assertThat(new SecretBox(key(1)).isCurrent(formatOneUnderA)).as("re-sealed into the new format too").isFalse();
        assertThatThrownBy(() -> new SecretBox(key(2)).open(formatOneUnderA, CONTEXT)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rotating.open(formatOneUnderA, "redemption-change:rdm_0193f1c2a4b5c6d7e8f9a0b1"))
                .isInstanceOf(IllegalStateException.class);
    }

    private final SecretBox box = new SecretBox(key(1));

    @Test
    void whatIsSealedOpensAgainWithTheSameContext() {
        byte[] sealed = box.seal(PLAIN, CONTEXT);
        assertThat(box.open(sealed, CONTEXT)).isEqualTo(PLAIN);
        // Another instance on the same master key (another service instance) opens it too.
        assertThat(new SecretBox(key(1)).open(sealed, CONTEXT)).isEqualTo(PLAIN);
    }

    @Test
    void theSealedFormHidesThePlaintextAndDiffersEachTime() {
        byte[] once = box.seal(PLAIN, CONTEXT);
        byte[] twice = box.seal(PLAIN, CONTEXT);
        assertThat(once).isNotEqualTo(twice);
        assertThat(new String(once, StandardCharsets.ISO_8859_1)).doesNotContain(PIN);
        // Format byte, 4-byte master key id, 12-byte nonce, ciphertext of the same length, 16-byte tag.
        assertThat(once).hasSize(1 + 4 + 12 + PLAIN.length + 16);
        assertThat(once[0]).isEqualTo((byte) 2);
    }

    @Test
    void aSealedValueDoesNotOpenUnderAnotherContext() {
        byte[] sealed = box.seal(PLAIN, CONTEXT);
        assertThatThrownBy(() -> box.open(sealed, "redemption-source:rdm_000000000000000000000000"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining(PIN);
        assertThatThrownBy(() -> box.open(sealed, "redemption-change:rdm_0193f1c2a4b5c6d7e8f9a0b1"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSealedValueDoesNotOpenUnderAnotherMasterKey() {
        byte[] sealed = box.seal(PLAIN, CONTEXT);
        assertThatThrownBy(() -> new SecretBox(key(2)).open(sealed, CONTEXT)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anyTamperingIsDetected() {
        byte[] sealed = box.seal(PLAIN, CONTEXT);
        for (int position : new int[]{1, 4, 5, 16, 17, 17 + PLAIN.length / 2, sealed.length - 1}) {
            byte[] tampered = sealed.clone();
            tampered[position] ^= 0x01;
            assertThatThrownBy(() -> box.open(tampered, CONTEXT)).as("byte " + position)
                    .isInstanceOf(IllegalStateException.class).hasMessageNotContaining(PIN);
        }
        byte[] otherVersion = sealed.clone();
        otherVersion[0] = 3;
        assertThatThrownBy(() -> box.open(otherVersion, CONTEXT)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> box.open(java.util.Arrays.copyOf(sealed, 20), CONTEXT))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theMasterKeyFileIsCreatedOnceAndKept(@TempDir Path dataDir) throws Exception {
        MasterKey first = new MasterKey("", dataDir);
        Path file = dataDir.resolve("master.key");
        assertThat(file).exists();
        assertThat(Base64.getDecoder().decode(Files.readString(file).trim())).hasSize(32);
        byte[] sealed = new SecretBox(first).seal(PLAIN, CONTEXT);

        MasterKey again = new MasterKey("", dataDir);
        assertThat(new SecretBox(again).open(sealed, CONTEXT)).isEqualTo(PLAIN);
    }

    @Test
    void aConfiguredMasterKeyMustBe32BytesOfBase64() {
        assertThatThrownBy(() -> new MasterKey("not base64!", Path.of("unused"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new MasterKey(Base64.getEncoder().encodeToString(new byte[16]), Path.of("unused")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void derivedKeysDifferByPurpose() {
        MasterKey master = key(1);
        assertThat(master.derive("aes-gcm/v1")).hasSize(32).isNotEqualTo(master.derive("api-key-hash/v1"));
        assertThat(new KeyedHash(master.derive("a")).of(PIN)).isEqualTo(new KeyedHash(master.derive("a")).of(PIN))
                .isNotEqualTo(new KeyedHash(master.derive("b")).of(PIN));
    }
    @Test
    void aFailedOpenLeavesNothingBehindThatBreaksTheNextOne() {
        byte[] sealed = box.seal(PLAIN, CONTEXT);
        assertThatThrownBy(() -> box.open(sealed, "redemption-source:rdm_000000000000000000000000"))
                .isInstanceOf(IllegalStateException.class);
        // Cipher objects are pooled: the one that failed must not be handed out half-initialised.
        assertThat(box.open(sealed, CONTEXT)).isEqualTo(PLAIN);
    }

    @Test
    void manyThreadsSealingAndOpeningAtOnceEachGetTheirOwnValueBack() throws Exception {
        List<Callable<Boolean>> tasks = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            int thread = t;
            tasks.add(() -> {
                for (int i = 0; i < 200; i++) {
                    byte[] value = ("value-" + thread + "-" + i).getBytes(StandardCharsets.UTF_8);
                    String context = "context-" + thread + "-" + i;
                    if (!java.util.Arrays.equals(box.open(box.seal(value, context), context), value)) {
                        return false;
                    }
                }
                return true;
            });
        }
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Future<Boolean> result : pool.invokeAll(tasks)) {
                assertThat(result.get()).isTrue();
            }
        }
    }
}
