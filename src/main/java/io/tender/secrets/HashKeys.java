package io.tender.secrets;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * The {@code hash_keys} table: the key of each purpose's {@link KeyedHash}, sealed. Keyed hashes are looked up, so
 * their key must never change (a changed key orphans every stored hash: API keys would stop working). The key is
 * derived from the master key the first time a purpose is used and stored sealed; a master key rotation re-seals it
 * like any other secret and leaves it as it is.
 */
@Repository
public class HashKeys implements SealedColumns {

    private final JdbcClient jdbc;
    private final SecretBox box;
    private final MasterKey masterKey;

    HashKeys(JdbcClient jdbc, SecretBox box, MasterKey masterKey) {
        this.jdbc = jdbc;
        this.box = box;
        this.masterKey = masterKey;
    }

    /** The keyed hash of one purpose (for example {@code api-key-hash/v1}); reads the database once. */
    public KeyedHash hash(String purpose) {
        return new KeyedHash(key(purpose));
    }

    private byte[] key(String purpose) {
        Optional<byte[]> stored = stored(purpose);
        if (stored.isPresent()) {
            return box.open(stored.get(), context(purpose));
        }
        // Recorded for the first time. During a rotation the stored hashes (from before this table existed) were
        // made with what is now the previous key.
        byte[] derived = masterKey.deriveFromPrevious(purpose).orElseGet(() -> masterKey.derive(purpose));
        jdbc.sql("insert into hash_keys (purpose, key_sealed, created_at) values (?, ?, ?) on conflict do nothing")
                .params(purpose, box.seal(derived, context(purpose)), Instant.now().atOffset(ZoneOffset.UTC))
                .update();
        // Another instance may have recorded it first: theirs counts.
        return box.open(stored(purpose).orElseThrow(), context(purpose));
    }

    private Optional<byte[]> stored(String purpose) {
        return jdbc.sql("select key_sealed from hash_keys where purpose = ?").param(purpose).query(byte[].class).optional();
    }

    private static String context(String purpose) {
        return "hash-key:" + purpose;
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("hash_keys", "key_sealed", "purpose", HashKeys::context));
    }
}
