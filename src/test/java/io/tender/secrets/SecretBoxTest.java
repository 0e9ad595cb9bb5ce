package io.tender.secrets;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sealing reuses cipher objects across calls and threads; every value must still open only as itself. */
class SecretBoxTest {

    private final MasterKey masterKey = new MasterKey(Base64.getEncoder().encodeToString(new byte[32]), Path.of("unused"));
    private final SecretBox box = new SecretBox(masterKey);

    @Test
    void aSealedValueOpensWithItsContextAndNeverWithAnother() {
        byte[] sealed = box.seal("1234567890120007".getBytes(StandardCharsets.UTF_8), "redemption-source:rdm_1");

        assertThat(new String(box.open(sealed, "redemption-source:rdm_1"), StandardCharsets.UTF_8)).isEqualTo("1234567890120007");
        assertThatThrownBy(() -> box.open(sealed, "redemption-source:rdm_2"))
                .isInstanceOf(IllegalStateException.class).hasMessageNotContaining("1234567890120007");
        // The failed open leaves nothing behind that breaks the next one.
        assertThat(box.open(sealed, "redemption-source:rdm_1")).isEqualTo("1234567890120007".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void sealingTheSameValueTwiceGivesDifferentBoxes() {
        byte[] first = box.seal(new byte[]{1, 2, 3}, "c");
        byte[] second = box.seal(new byte[]{1, 2, 3}, "c");

        assertThat(first).isNotEqualTo(second);
        assertThat(first).hasSize(1 + 12 + 3 + 16);
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

    @Test
    void aKeyedHashIsStablePerSecretAndPurpose() {
        KeyedHash hash = new KeyedHash(masterKey, "sandbox-voucher/v1");

        assertThat(hash.of("pin-1")).isEqualTo(hash.of("pin-1")).isNotEqualTo(hash.of("pin-2"));
        assertThat(hash.of("pin-1")).isNotEqualTo(new KeyedHash(masterKey, "api-key-hash/v1").of("pin-1"));
    }
}
