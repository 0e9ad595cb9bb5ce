package io.tender.subscription;

import io.tender.api.Ids;
import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.stereotype.Service;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The dashboard's Subscriptions and Mandates pages (decisions §11): the API's own lists, views and schedule
 * ({@code GET /collect/subscriptions}, {@code /collect/mandates}, {@code …/{id}/schedule}) for one merchant in one
 * mode, plus what only a person reads: a subscription's periods and a mandate's terms in the words the customer agreed
 * to at the checkout. Another merchant's or mode's id is never found.
 */
@Service
public record SeriesPages(Subscriptions subscriptions, Mandates mandates, SeriesService service, SeriesViews views) {

    /** The statuses a subscription and a mandate can have, in wire form. */
    public static final List<String> SUBSCRIPTION_STATUSES = Arrays.stream(Subscription.Status.values())
            .map(Subscription.Status::wire).toList();
    public static final List<String> MANDATE_STATUSES = Arrays.stream(Mandate.Status.values())
            .map(Mandate.Status::wire).toList();
    private static final Pattern SUBSCRIPTION = Ids.pattern(Subscription.PREFIX);
    private static final Pattern MANDATE = Ids.pattern(Mandate.PREFIX);

    /** A page of a list, and the cursor of the next (null: this is the last). */
    public record Page<T>(List<T> rows, String nextCursor) {
    }

    /** One period of a subscription: its charge date, amount, status and the latest payment charged for it. */
    public record Period(int number, LocalDate chargeDate, long amount, String status, int attempts,
                         String paymentId) {
    }

    /** One coming execution date of a mandate, as {@code GET /collect/mandates/{id}/schedule} shows it. */
    public record Upcoming(LocalDate date, Long amount, boolean allowed) {
    }

    /** Up to {@code limit} subscriptions older than {@code cursor} (null: the newest), of {@code status} (null: any). */
    public Page<SubscriptionView> subscriptions(String merchantId, Mode mode, String status, String cursor, int limit) {
        ListQuery query = ListQuery.page(SUBSCRIPTION, cursor, limit);
        return page(subscriptions.list(Caller.system(merchantId, mode), query,
                null, status != null && SUBSCRIPTION_STATUSES.contains(status) ? status : null), limit, SubscriptionView::of,
                SubscriptionView::id);
    }

    /** Up to {@code limit} mandates older than {@code cursor} (null: the newest), of {@code status} (null: any). */
    public Page<MandateView> mandates(String merchantId, Mode mode, String status, String cursor, int limit) {
        ListQuery query = ListQuery.page(MANDATE, cursor, limit);
        return page(mandates.list(Caller.system(merchantId, mode), query, null,
                status != null && MANDATE_STATUSES.contains(status) ? status : null), limit, views::mandate, MandateView::id);
    }

    public Optional<SubscriptionView> subscription(String merchantId, Mode mode, String id) {
        if (id == null || !SUBSCRIPTION.matcher(id).matches()) {
            return Optional.empty();
        }
        return subscriptions.find(Caller.system(merchantId, mode), id, false).map(SubscriptionView::of);
    }

    public Optional<MandateView> mandate(String merchantId, Mode mode, String id) {
        if (id == null || !MANDATE.matcher(id).matches()) {
            return Optional.empty();
        }
        return mandates.find(Caller.system(merchantId, mode), id, false).map(views::mandate);
    }

    /** The subscription's periods, the latest first (the caller has found the subscription for its merchant). */
    public List<Period> periods(SubscriptionView subscription) {
        return subscriptions.periods(subscription.id()).stream().map(p -> new Period(p.number(), p.chargeDate(),
                p.amount(), p.status().wire(), p.attempts(), p.paymentId())).toList();
    }

    /** The next {@code count} execution dates, by the very code of {@code GET /collect/mandates/{id}/schedule}. */
    public List<Upcoming> schedule(String merchantId, Mode mode, String mandateId, int count) {
        return service.schedule(Caller.system(merchantId, mode), mandateId, count).stream()
                .map(u -> new Upcoming(u.date(), u.amount(), u.allowed())).toList();
    }

    /** The mandate's terms in the words the checkout showed the customer before they agreed by paying. */
    public String agreedTerms(String merchantId, Mode mode, String mandateId, String merchantName) {
        Mandate mandate = mandates.get(Caller.system(merchantId, mode), mandateId, false);
        return MandateWords.of(mandate.fixed().terms(), merchantName, mandate.fixed().currency());
    }

    private static <R, T> Page<T> page(List<R> rows, int limit, Function<R, T> view, Function<T, String> id) {
        boolean more = rows.size() > limit;
        List<T> shown = (more ? rows.subList(0, limit) : rows).stream().map(view).toList();
        return new Page<>(shown, more ? id.apply(shown.getLast()) : null);
    }
}
