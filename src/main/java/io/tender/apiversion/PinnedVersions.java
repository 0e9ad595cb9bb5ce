package io.tender.apiversion;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tender.auth.Merchants;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The version each merchant is pinned to (decisions §15): what its requests without {@code Tender-Version} get, and
 * how it moves. An owner upgrades (to a newer version only) and may roll the upgrade back for {@link #ROLLBACK_WINDOW};
 * the operators' admin API sets any version. A pin read is cached for {@link #CACHE_TTL} per instance so that a
 * request costs no extra round trip: a change takes effect at once on the instance that made it and within that
 * time on the others, as a revoked API key does.
 */
@Component
public class PinnedVersions {

    static final Duration CACHE_TTL = Duration.ofSeconds(5);
    public static final Duration ROLLBACK_WINDOW = Duration.ofHours(72);

    /** A merchant's pin: its version, and the version an upgrade replaced with until when it may be rolled back. */
    public record Pin(ApiVersion version, ApiVersion previous, Instant rollbackUntil) {

        /** Whether the last change was an upgrade still within {@link #ROLLBACK_WINDOW} at {@code now}. */
        public boolean canRollBack(Instant now) {
            return previous != null && rollbackUntil != null && now.isBefore(rollbackUntil);
        }
    }

    /** How a change of the pin went. */
    public sealed interface Change {
        record Changed(Pin before, Pin after) implements Change {
        }

        /** Nothing changed, for this reason (in the words a page shows). */
        record Refused(String reason) implements Change {
        }
    }

    private final Merchants merchants;
    private final Clock clock;
    private final Cache<String, ApiVersion> recent = Caffeine.newBuilder()
            .expireAfterWrite(CACHE_TTL).maximumSize(100_000).build();

    PinnedVersions(Merchants merchants, Clock clock) {
        this.merchants = merchants;
        this.clock = clock;
    }

    /** The version of the merchant's requests that name none; the newest for a merchant that does not exist. */
    public ApiVersion of(String merchantId) {
        return recent.get(merchantId, id -> pin(id).map(Pin::version).orElse(ApiVersions.NEWEST));
    }

    public Optional<Pin> pin(String merchantId) {
        return merchants.apiVersionPin(merchantId).map(PinnedVersions::pinOf);
    }

    /** The owner's upgrade, to a version newer than the pinned one; it may be rolled back for 72 hours. */
    public Change upgrade(String merchantId, ApiVersion to) {
        Optional<Pin> found = pin(merchantId);
        if (found.isEmpty()) {
            return new Change.Refused("No such merchant.");
        }
        Pin before = found.get();
        if (!before.version().isBefore(to)) {
            return new Change.Refused("The API version is already " + before.version().wire() + ".");
        }
        return repin(merchantId, before, to, before.version());
    }

    /** Back to the version the last upgrade replaced, within 72 hours of it; no further rollback after that. */
    public Change rollBack(String merchantId) {
        Optional<Pin> found = pin(merchantId);
        if (found.isEmpty()) {
            return new Change.Refused("No such merchant.");
        }
        Pin before = found.get();
        if (!before.canRollBack(clock.instant())) {
            return new Change.Refused(before.previous() == null ? "There is no upgrade to roll back."
                    : "The upgrade to " + before.version().wire() + " was more than 72 hours ago: it can no longer "
                    + "be rolled back.");
        }
        return repin(merchantId, before, before.previous(), null);
    }

    /** The operators' setting (admin API), to any version: an upgrade may be rolled back like the owner's, a downgrade not. */
    public Change set(String merchantId, ApiVersion to) {
        Optional<Pin> found = pin(merchantId);
        if (found.isEmpty()) {
            return new Change.Refused("No such merchant.");
        }
        Pin before = found.get();
        if (before.version().equals(to)) {
            return new Change.Changed(before, before);
        }
        return repin(merchantId, before, to, before.version().isBefore(to) ? before.version() : null);
    }

    private Change repin(String merchantId, Pin before, ApiVersion to, ApiVersion previous) {
        Instant now = clock.instant();
        if (!merchants.repinApiVersion(merchantId, before.version().wire(), to.wire(),
                previous == null ? null : previous.wire(), now)) {
            return new Change.Refused("The API version changed meanwhile. Open the page again.");
        }
        recent.invalidate(merchantId);
        return new Change.Changed(before, new Pin(to, previous, previous == null ? null : now.plus(ROLLBACK_WINDOW)));
    }

    private static Pin pinOf(Merchants.ApiVersionPin stored) {
        ApiVersion previous = stored.previous() == null ? null : ApiVersion.of(stored.previous());
        Instant until = previous == null || stored.changedAt() == null ? null : stored.changedAt().plus(ROLLBACK_WINDOW);
        return new Pin(ApiVersion.of(stored.version()), previous, until);
    }
}
