package io.tender.auth;

import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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
 * that lookup, so the next request with it is refused at once (not up to {@link ApiKeys#CACHE_TTL} later).
 */
class ApiKeysTest {

    private static final String KEY = "sk_test_0123456789abcdef0123456789abcdef01234567";
    private static final Caller CALLER = new Caller("mer_1", Mode.TEST, KeyKind.SK_TEST, "key_1");

    /** The database stand-in: one key, active until revoked; a lookup can be held between its read and its return. */
    private static final class HeldLookups extends ApiKeys {
        final AtomicBoolean revoked = new AtomicBoolean();
        volatile CountDownLatch read = new CountDownLatch(0);
        volatile CountDownLatch release = new CountDownLatch(0);
        int lookups;

        HeldLookups() {
            super(null, hashKeys());
        }

        @Override
        Optional<Caller> findActive(byte[] keyHash) {
            lookups++;
            Optional<Caller> row = revoked.get() ? Optional.empty() : Optional.of(CALLER);
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
}
