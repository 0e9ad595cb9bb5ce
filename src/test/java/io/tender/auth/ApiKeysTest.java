package io.tender.auth;

import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import io.tender.support.MovableClock;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * The cache of recent key lookups in {@link ApiKeys}: a key revoked while a lookup of it is in flight is not cached by
 * that lookup, so the next request with it is refused at once (not up to {@link ApiKeys#CACHE_TTL} later). A rolled
 * key's expiry holds on the cached lookup too, and a key's last use is written at most once a minute.
 */
class ApiKeysTest {

    private static final String KEY = "sk_test_0123456789abcdef0123456789abcdef01234567";
    private static final Caller CALLER = new Caller("mer_1", Mode.TEST, KeyKind.SK_TEST, "key_1");

    /** The test's clock, at a fixed start it moves from. */
    private static MovableClock clock() {
        MovableClock clock = new MovableClock();
        clock.set(Instant.parse("2026-11-28T10:00:00Z"));
        return clock;
    }

    /**
     * The database stand-in: one key, active until revoked or past its expiry; a lookup can be held between its read
     * and its return.
     */
    private static final class HeldLookups extends ApiKeys {
        final AtomicBoolean revoked = new AtomicBoolean();
        volatile Instant expiresAt;
        volatile CountDownLatch read = new CountDownLatch(0);
        volatile CountDownLatch release = new CountDownLatch(0);
        int lookups;
        final List<Instant> usesWritten = new java.util.concurrent.CopyOnWriteArrayList<>();

        HeldLookups(MovableClock clock) {
            super(null, hashKeys(), null, clock);
        }

        HeldLookups() {
            this(clock());
        }

        @Override
        Optional<Active> findActive(byte[] keyHash, Instant now) {
            lookups++;
            boolean active = !revoked.get() && (expiresAt == null || now.isBefore(expiresAt));
            Optional<Active> row = active ? Optional.of(new Active(CALLER, expiresAt)) : Optional.empty();
            read.countDown();
            try {
                assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return row;
        }

        @Override
        boolean markRevoked(String keyId) {
            return revoked.compareAndSet(false, true);
        }

        @Override
        void markUsed(String keyId, Instant at) {
            usesWritten.add(at);
        }
    }

    private static HashKeys hashKeys() {
        KeyedHash hash = mock(KeyedHash.class);
        when(hash.of(anyString())).thenAnswer(call -> call.<String>getArgument(0).getBytes(StandardCharsets.UTF_8));
        HashKeys hashKeys = mock(HashKeys.class);
        when(hashKeys.hash(anyString())).thenReturn(hash);
        return hashKeys;
    }

    @Test
    void aSuccessfulLookupIsCachedSoTheNextRequestCostsNoQuery() {
        HeldLookups keys = new HeldLookups();
        assertThat(keys.authenticate(KEY)).contains(CALLER);
        assertThat(keys.authenticate(KEY)).contains(CALLER);
        assertThat(keys.lookups).isEqualTo(1);
    }

    @Test
    void aRevocationEndsTheCachedLookupAtOnce() {
        HeldLookups keys = new HeldLookups();
        assertThat(keys.authenticate(KEY)).contains(CALLER);
        assertThat(keys.revoke(CALLER.keyId())).isTrue();
        assertThat(keys.authenticate(KEY)).isEmpty();
    }

    @Test
    void aKeyRevokedWhileALookupOfItIsInFlightIsNotCachedByThatLookup() throws Exception {
        HeldLookups keys = new HeldLookups();
        keys.read = new CountDownLatch(1);
        keys.release = new CountDownLatch(1);
        // The lookup reads the key while it is still active, and is held before it returns (and caches).
        CompletableFuture<Optional<Caller>> inFlight = CompletableFuture.supplyAsync(() -> keys.authenticate(KEY));
        assertThat(keys.read.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(keys.revoke(CALLER.keyId())).isTrue();
        keys.release.countDown();
        // That request was authenticated before the revocation took effect: it may pass.
        assertThat(inFlight.get(10, TimeUnit.SECONDS)).contains(CALLER);

        // The next one is refused at once: the lookup that raced the revocation left nothing in the cache.
        assertThat(keys.authenticate(KEY)).isEmpty();
        assertThat(keys.lookups).isEqualTo(2);
    }

    @Test
    void aRolledKeyWorksDuringItsOverlapAndIsRefusedFromItsExpiryEvenWhenItsLookupIsCached() {
        MovableClock clock = clock();
        HeldLookups keys = new HeldLookups(clock);
        keys.expiresAt = clock.instant().plus(Duration.ofHours(1));
        assertThat(keys.authenticate(KEY)).contains(CALLER);

        clock.advance(Duration.ofMinutes(59));
        assertThat(keys.authenticate(KEY)).as("during the overlap").contains(CALLER);

        clock.set(keys.expiresAt);
        assertThat(keys.authenticate(KEY)).as("from the expiry, though the lookup is cached").isEmpty();
        assertThat(keys.lookups).isEqualTo(1);
    }

    @Test
    void anExpiredKeyIsNotFoundInTheDatabaseEither() {
        MovableClock clock = clock();
        HeldLookups keys = new HeldLookups(clock);
        keys.expiresAt = clock.instant().minusMillis(1);
        assertThat(keys.authenticate(KEY)).isEmpty();
        assertThat(keys.authenticate(KEY)).isEmpty();
        assertThat(keys.lookups).as("a refusal is never cached").isEqualTo(2);
    }

    @Test
    void aKeysLastUseIsWrittenAtMostOnceAMinuteOffTheRequestsThreadAndNotForARefusedRequest() throws Exception {
        MovableClock clock = clock();
        HeldLookups keys = new HeldLookups(clock);
        Instant first = clock.instant();
        for (int i = 0; i < 50; i++) {
            assertThat(keys.authenticate(KEY)).contains(CALLER);
            clock.advance(Duration.ofMillis(100));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (keys.usesWritten.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(100);
        assertThat(keys.usesWritten).as("one write for 50 requests within the minute").containsExactly(first);

        clock.set(first.plus(ApiKeys.LAST_USED_INTERVAL));
        assertThat(keys.authenticate(KEY)).contains(CALLER);
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (keys.usesWritten.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(keys.usesWritten).as("the next minute, the next write").containsExactly(first, clock.instant());

        HeldLookups revoked = new HeldLookups(clock);
        revoked.revoked.set(true);
        assertThat(revoked.authenticate(KEY)).isEmpty();
        Thread.sleep(100);
        assertThat(revoked.usesWritten).isEmpty();
    }
}
