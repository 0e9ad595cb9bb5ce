package io.tender.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * API keys, stored as keyed hashes. A successful lookup is cached for a few seconds so that authentication costs
 * no database round trip on a busy key; revoking a key takes effect at once on this instance and within
 * {@link #CACHE_TTL} on the others.
 *
 * <p>"At once" includes a lookup of the key that is in flight while it is revoked: every cached lookup carries the
 * number of revocations on this instance seen before its query, and a lookup from before the latest revocation
 * counts as not cached. (Removing the key's entry alone would miss a lookup that read the key as active just before
 * the revocation and caches it just after.)
 */
@Repository
public class ApiKeys {

    static final Duration CACHE_TTL = Duration.ofSeconds(5);
    /** Keys this service generates: the kind's prefix and 40 hex digits (160 random bits). */
    private static final int GENERATED_HEX = 40;
    /** Operator-supplied keys (bootstrap) need at least this much after their prefix. */
    static final int MIN_SECRET_CHARS = 16;

    public record IssuedKey(String id, String merchantId, KeyKind kind, String plainKey) {
    }

    public record KeyInfo(String id, String merchantId, KeyKind kind, String display, Instant createdAt, Instant revokedAt) {
    }

    private final JdbcClient jdbc;
    private final KeyedHash hash;
    private final Cache<String, Lookup> recent = Caffeine.newBuilder()
            .expireAfterWrite(CACHE_TTL).maximumSize(10_000).build();
    /** Revocations on this instance so far; raised after each revocation's update is committed. */
    private final AtomicLong revocations = new AtomicLong();

    /** A cached lookup, valid while no key was revoked on this instance since {@code revocationsBefore}. */
    private record Lookup(Caller caller, long revocationsBefore) {
    }

    ApiKeys(JdbcClient jdbc, HashKeys hashKeys) {
        this.jdbc = jdbc;
        this.hash = hashKeys.hash("api-key-hash/v1");
    }

    public Optional<Caller> authenticate(String plainKey) {
        byte[] keyHash = hash.of(plainKey);
        String cacheKey = HexFormat.of().formatHex(keyHash);
        // Read before the query: a revocation committed after the query read the key raises it past this value.
        long revocationsBefore = revocations.get();
        Lookup cached = recent.getIfPresent(cacheKey);
        if (cached != null && cached.revocationsBefore() == revocationsBefore) {
            return Optional.of(cached.caller());
        }
        Optional<Caller> caller = findActive(keyHash);
        caller.ifPresent(c -> recent.put(cacheKey, new Lookup(c, revocationsBefore)));
        return caller;
    }

    /** The active key with this hash, from the database. */
    Optional<Caller> findActive(byte[] keyHash) {
        return jdbc.sql("""
                        select id, merchant_id, kind from api_keys where key_hash = ? and revoked_at is null""")
                .param(keyHash)
                .query((rs, i) -> {
                    KeyKind kind = KeyKind.fromWire(rs.getString("kind"));
                    return new Caller(rs.getString("merchant_id"), kind.mode(), kind, rs.getString("id"));
                })
                .optional();
    }

    public IssuedKey issue(String merchantId, KeyKind kind) {
        String plain = kind.prefix() + Ids.randomHex(GENERATED_HEX / 2);
        String id = insert(merchantId, kind, plain).orElseThrow();
        return new IssuedKey(id, merchantId, kind, plain);
    }

    /** Registers an operator-chosen key (bootstrap); nothing happens when the key is already registered. */
    public void register(String merchantId, String plainKey) {
        KeyKind kind = KeyKind.of(plainKey).orElseThrow(() -> new IllegalArgumentException("unknown key prefix"));
        insert(merchantId, kind, plainKey);
    }

    public List<KeyInfo> of(String merchantId) {
        return jdbc.sql("""
                        select id, merchant_id, kind, display, created_at, revoked_at
                        from api_keys where merchant_id = ? order by created_at, id""")
                .param(merchantId)
                .query((rs, i) -> new KeyInfo(rs.getString("id"), rs.getString("merchant_id"),
                        KeyKind.fromWire(rs.getString("kind")), rs.getString("display"),
                        rs.getTimestamp("created_at").toInstant(),
                        rs.getTimestamp("revoked_at") == null ? null : rs.getTimestamp("revoked_at").toInstant()))
                .list();
    }

    public Optional<KeyInfo> byId(String keyId) {
        return jdbc.sql("select merchant_id from api_keys where id = ?").param(keyId).query(String.class).optional()
                .flatMap(merchant -> of(merchant).stream().filter(k -> k.id().equals(keyId)).findFirst());
    }

    /** Revokes the key; true if it was active. */
    public boolean revoke(String keyId) {
        boolean revoked = markRevoked(keyId);
        // After the commit: every lookup that may have read the key as active is now out of date.
        revocations.incrementAndGet();
        recent.asMap().values().removeIf(lookup -> lookup.caller().keyId().equals(keyId));
        return revoked;
    }

    /** Sets {@code revoked_at} in the database; true if the key was active. */
    boolean markRevoked(String keyId) {
        return jdbc.sql("update api_keys set revoked_at = ? where id = ? and revoked_at is null")
                .params(Timestamps.now().atOffset(ZoneOffset.UTC), keyId).update() == 1;
    }

    private Optional<String> insert(String merchantId, KeyKind kind, String plain) {
        String id = Ids.newId("key_");
        int rows = jdbc.sql("""
                        insert into api_keys (id, merchant_id, kind, key_hash, display, created_at)
                        values (?, ?, ?, ?, ?, ?) on conflict (key_hash) do nothing""")
                .params(id, merchantId, kind.wire(), hash.of(plain), display(kind, plain),
                        Timestamps.now().atOffset(ZoneOffset.UTC))
                .update();
        return rows == 1 ? Optional.of(id) : Optional.empty();
    }

    /** Enough to recognise a key in a list, never enough to use it: the prefix and the last four characters. */
    private static String display(KeyKind kind, String plain) {
        String prefix = plain.startsWith(kind.prefix()) ? kind.prefix() : kind.specPrefix();
        return prefix + "…" + plain.substring(plain.length() - 4);
    }
}
