package io.tender.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>Rolling a key issues a new one of the same kind and gives the old one an expiry: until then both work, from then
 * the old one is refused like a revoked one (checked on every request, cached or not, against {@link Clock}). When a
 * key was last used is written at most once per {@link #LAST_USED_INTERVAL} per key on this instance, on a thread of
 * its own, so authentication never waits for it.
 */
@Repository
public class ApiKeys {

    static final Duration CACHE_TTL = Duration.ofSeconds(5);
    /** Keys this service generates: the kind's prefix and 40 hex digits (160 random bits). */
    private static final int GENERATED_HEX = 40;
    /** Operator-supplied keys (bootstrap) need at least this much after their prefix. */
    static final int MIN_SECRET_CHARS = 16;
    /** At most one write of a key's last use per this interval and instance. */
    static final Duration LAST_USED_INTERVAL = Duration.ofMinutes(1);

    private static final Logger log = LoggerFactory.getLogger(ApiKeys.class);

    public record IssuedKey(String id, String merchantId, KeyKind kind, String plainKey) {
    }

    /**
     * A key as lists show it, never its secret. {@code expiresAt} is set by a roll; {@code lastUsedAt} may lag the real
     * last use by up to {@link #LAST_USED_INTERVAL}.
     */
    public record KeyInfo(String id, String merchantId, KeyKind kind, String display, Instant createdAt, Instant revokedAt,
                          Instant expiresAt, Instant lastUsedAt) {

        /** Neither revoked nor past its expiry at {@code now}. */
        public boolean activeAt(Instant now) {
            return revokedAt == null && (expiresAt == null || now.isBefore(expiresAt));
        }
    }

    /** What a roll did: the new key (its secret to show once) and until when the old one still works. */
    public record Rolled(IssuedKey key, String oldKeyId, Instant oldExpiresAt) {
    }

    private final JdbcClient jdbc;
    private final KeyedHash hash;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final Cache<String, Lookup> recent = Caffeine.newBuilder()
            .expireAfterWrite(CACHE_TTL).maximumSize(10_000).build();
    /** Revocations (and rolls) on this instance so far; raised after each one's update is committed. */
    private final AtomicLong revocations = new AtomicLong();
    /** The keys whose last use this instance wrote within {@link #LAST_USED_INTERVAL} (of {@link #clock}). */
    private final Cache<String, Instant> usesWritten;

    /**
     * A cached lookup, valid while no key was revoked on this instance since {@code revocationsBefore} and, for a
     * rolled key, before {@code expiresAt}.
     */
    private record Lookup(Caller caller, Instant expiresAt, long revocationsBefore) {
    }

    /** An active key as the database has it: who it authenticates, and until when (null: until revoked). */
    record Active(Caller caller, Instant expiresAt) {
    }

    ApiKeys(JdbcClient jdbc, HashKeys hashKeys, TransactionTemplate tx, Clock clock) {
        this.jdbc = jdbc;
        this.hash = hashKeys.hash("api-key-hash/v1");
        this.tx = tx;
        this.clock = clock;
        this.usesWritten = Caffeine.newBuilder().ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
                .expireAfterWrite(LAST_USED_INTERVAL).maximumSize(100_000).build();
    }

    public Optional<Caller> authenticate(String plainKey) {
        byte[] keyHash = hash.of(plainKey);
        String cacheKey = HexFormat.of().formatHex(keyHash);
        // Read before the query: a revocation committed after the query read the key raises it past this value.
        long revocationsBefore = revocations.get();
        Instant now = now();
        Lookup cached = recent.getIfPresent(cacheKey);
        Optional<Caller> caller;
        if (cached != null && cached.revocationsBefore() == revocationsBefore) {
            caller = cached.expiresAt() == null || now.isBefore(cached.expiresAt())
                    ? Optional.of(cached.caller()) : Optional.empty();
        } else {
            Optional<Active> active = findActive(keyHash, now);
            active.ifPresent(a -> recent.put(cacheKey, new Lookup(a.caller(), a.expiresAt(), revocationsBefore)));
            caller = active.map(Active::caller);
        }
        caller.ifPresent(c -> noteUse(c.keyId(), now));
        return caller;
    }

    /** The key with this hash if it is active at {@code now}, from the database. */
    Optional<Active> findActive(byte[] keyHash, Instant now) {
        return jdbc.sql("""
                        select id, merchant_id, kind, expires_at from api_keys
                        where key_hash = ? and revoked_at is null and (expires_at is null or expires_at > ?)""")
                .params(keyHash, now.atOffset(ZoneOffset.UTC))
                .query((rs, i) -> {
                    KeyKind kind = KeyKind.fromWire(rs.getString("kind"));
                    var expires = rs.getTimestamp("expires_at");
                    return new Active(new Caller(rs.getString("merchant_id"), kind.mode(), kind, rs.getString("id")),
                            expires == null ? null : expires.toInstant());
                })
                .optional();
    }

    /**
     * Records the use unless this instance did within {@link #LAST_USED_INTERVAL}: the write runs on a virtual thread
     * of its own, so the request never waits for it, and at most one per key and interval is started.
     */
    private void noteUse(String keyId, Instant now) {
        if (usesWritten.asMap().putIfAbsent(keyId, now) != null) {
            return;
        }
        Thread.ofVirtual().name("api-key-last-used").start(() -> {
            try {
                markUsed(keyId, now);
            } catch (RuntimeException e) {
                // Only the list's "last used" is late; the request itself was authenticated.
                log.warn("Could not record the last use of key {}: {}", keyId, e.toString());
            }
        });
    }

    /** Sets {@code last_used_at}, never back in time. */
    void markUsed(String keyId, Instant at) {
        jdbc.sql("""
                        update api_keys set last_used_at = ?
                        where id = ? and (last_used_at is null or last_used_at < ?)""")
                .params(at.atOffset(ZoneOffset.UTC), keyId, at.atOffset(ZoneOffset.UTC))
                .update();
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
                        select id, merchant_id, kind, display, created_at, revoked_at, expires_at, last_used_at
                        from api_keys where merchant_id = ? order by created_at, id""")
                .param(merchantId)
                .query((rs, i) -> new KeyInfo(rs.getString("id"), rs.getString("merchant_id"),
                        KeyKind.fromWire(rs.getString("kind")), rs.getString("display"),
                        rs.getTimestamp("created_at").toInstant(), instant(rs.getTimestamp("revoked_at")),
                        instant(rs.getTimestamp("expires_at")), instant(rs.getTimestamp("last_used_at"))))
                .list();
    }

    private static Instant instant(java.sql.Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    public Optional<KeyInfo> byId(String keyId) {
        return jdbc.sql("select merchant_id from api_keys where id = ?").param(keyId).query(String.class).optional()
                .flatMap(merchant -> of(merchant).stream().filter(k -> k.id().equals(keyId)).findFirst());
    }

    /**
     * Issues a new key of the same merchant and kind, and lets the old one work for {@code overlap} more (zero: it
     * stops at once), in one transaction. Empty when the key is revoked or already rolled: a key is rolled once.
     */
    public Optional<Rolled> roll(String keyId, Duration overlap) {
        if (overlap.isNegative()) {
            throw new IllegalArgumentException("a negative overlap");
        }
        Instant expiresAt = now().plus(overlap);
        Optional<Rolled> rolled = tx.execute(status -> jdbc.sql("""
                        update api_keys set expires_at = ? where id = ? and revoked_at is null and expires_at is null
                        returning merchant_id, kind""")
                .params(expiresAt.atOffset(ZoneOffset.UTC), keyId)
                .query((rs, i) -> List.of(rs.getString("merchant_id"), rs.getString("kind")))
                .optional()
                .map(old -> new Rolled(issue(old.get(0), KeyKind.fromWire(old.get(1))), keyId, expiresAt)));
        // After the commit, as for a revocation: no cached lookup from before it counts.
        forget(keyId);
        return rolled;
    }

    /** Now on the clock that decides expiries, at the precision the database keeps. */
    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** Revokes the key; true if it was active. */
    public boolean revoke(String keyId) {
        boolean revoked = markRevoked(keyId);
        // After the commit: every lookup that may have read the key as active is now out of date.
        forget(keyId);
        return revoked;
    }

    private void forget(String keyId) {
        revocations.incrementAndGet();
        recent.asMap().values().removeIf(lookup -> lookup.caller().keyId().equals(keyId));
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
