package io.tender.redemption;

import io.tender.api.Keyset;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.outbox.EventLog;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The dashboard's Redemptions pages (decisions §11): one merchant's redemptions in one mode, newest first a page at a
 * time, one redemption, and its events. Each redemption is the API's own view with the read's masking
 * ({@link RedemptionView#of}: {@code source} and {@code change_voucher.pin} starred but their last 4 characters), so
 * no page can show a voucher PIN or token the API would not. Scoped by merchant and mode, whatever the id or cursor.
 */
@Service
public class RedemptionSearch {

    /** The most rows a page holds. */
    public static final int MAX_LIMIT = 100;
    /** The statuses, as the API writes them. */
    public static final List<String> STATUSES = Arrays.stream(RedemptionStatus.values())
            .map(RedemptionStatus::wire).toList();

    /** A page of redemptions (masked as reads are), and the cursor of the next page (null: this is the last). */
    public record Page(List<RedemptionView> rows, String nextCursor) {
    }

    /** An event of the redemption, as the outbox holds it. */
    public record Event(String id, String type, Instant at) {
    }

    private final Redemptions redemptions;
    private final EventLog events;

    RedemptionSearch(Redemptions redemptions, EventLog events) {
        this.redemptions = redemptions;
        this.events = events;
    }

    /**
     * The page of the merchant's redemptions after {@code after} (null: the first), newest first: of {@code status}
     * (null: any; else one of {@link #STATUSES}) and {@code search} (null: all; a {@code rdm_} id or an external
     * reference).
     */
    public Page page(String merchantId, Mode mode, String status, String search, Keyset after, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT);
        }
        if (status != null && !STATUSES.contains(status)) {
            throw new IllegalArgumentException("not a redemption status: " + status);
        }
        List<Redemption> rows = redemptions.page(Caller.system(merchantId, mode), status, search, after, limit + 1);
        boolean more = rows.size() > limit;
        List<Redemption> shown = more ? rows.subList(0, limit) : rows;
        return new Page(shown.stream().map(r -> RedemptionView.of(r, true)).toList(),
                more ? new Keyset(shown.getLast().createdAt(), shown.getLast().id()).cursor() : null);
    }

    /** The merchant's redemption with this id in {@code mode}, masked as the API's GET shows it. */
    public Optional<RedemptionView> find(String merchantId, Mode mode, String id) {
        return id.startsWith("rdm_") && id.length() <= 68
                ? redemptions.find(Caller.system(merchantId, mode), id).map(r -> RedemptionView.of(r, true))
                : Optional.empty();
    }

    /** The redemption's events, in the order they were written; none for another merchant's or mode's id. */
    public List<Event> events(String merchantId, Mode mode, String id) {
        return events.ofAggregates(Caller.system(merchantId, mode), List.of(id)).stream()
                .map(e -> new Event(e.id(), e.type(), e.createdAt())).toList();
    }
}
