package io.tender.paymentrequest;

import io.tender.api.Ids;
import io.tender.api.ListQuery;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.Outcome;
import org.springframework.stereotype.Service;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Payment requests for the dashboard's Links pages (decisions §11): make one from a form, list them, show one, cancel
 * one, each through the flows of the API ({@code POST /collect/payment_requests}, {@code GET …}, {@code DELETE
 * …/{id}}): the same validation, the same rules, and an Idempotency-Key the form carries, so a form sent twice makes
 * one request. Each answers its typed {@link Outcome}. Another merchant's or mode's id is never found.
 */
@Service
public record PaymentLinks(PaymentRequestService service, PaymentRequests requests, RequestRecorder recorder) {

    /** The statuses a request can have, in wire form. */
    public static final List<String> STATUSES = List.of("active", "paid", "expired", "cancelled", "failed");
    private static final Pattern ID = Ids.pattern("pr_");

    /** A payment request as the dashboard shows it; amounts in minor units; {@code url} is its checkout's link. */
    public record Link(String id, String type, String status, long amount, String currency, String description,
                       String externalReference, String url, String paymentId, String paymentSessionId,
                       String customerName, String customerEmail, String customerPhone, long refundedAmount,
                       Instant expiresAt, Instant createdAt) {
    }

    /** A page of requests and the cursor of the next (null: this is the last). */
    public record Page(List<Link> rows, String nextCursor) {
    }

    /**
     * Makes a request of {@code body} (the fields of {@code POST /collect/payment_requests}) under the form's key. A
     * body the API refuses throws as the API's does ({@code ApiException}, 400 naming each field).
     */
    public Outcome<Link> create(String merchantId, Mode mode, KeyedRequest form, ObjectNode body) {
        NewPaymentRequest command = NewPaymentRequest.parse(body, Timestamps.now());
        return service.create(Caller.system(merchantId, mode), form, command).outcome().map(PaymentLinks::link);
    }

    /** Checks {@code body} as {@code POST /collect/payment_requests} would, making nothing: throws as the API does. */
    public void validate(ObjectNode body) {
        NewPaymentRequest.parse(body, Timestamps.now());
    }

    /** Cancels the request as {@code DELETE /collect/payment_requests/{id}} does, under the form's key. */
    public Outcome<Link> cancel(String merchantId, Mode mode, String id, KeyedRequest form) {
        return service.cancel(Caller.system(merchantId, mode), form, id, null).outcome().map(PaymentLinks::link);
    }

    /** Whether {@link #cancel} would cancel the request now: its page offers the button only then. */
    public boolean cancellable(String merchantId, Mode mode, String id) {
        return service.cancellable(Caller.system(merchantId, mode), id);
    }

    public Optional<Link> find(String merchantId, Mode mode, String id) {
        if (id == null || !ID.matcher(id).matches()) {
            return Optional.empty();
        }
        return requests.find(Caller.system(merchantId, mode), id, false).map(recorder::view).map(PaymentLinks::link);
    }

    /** Up to {@code limit} requests older than {@code cursor} (null: the newest), of {@code status} (null: any). */
    public Page page(String merchantId, Mode mode, String status, String cursor, int limit) {
        List<PaymentRequest> rows = requests.list(Caller.system(merchantId, mode), ListQuery.page(ID, cursor, limit),
                status != null && STATUSES.contains(status) ? status : null);
        boolean more = rows.size() > limit;
        List<Link> shown = (more ? rows.subList(0, limit) : rows).stream().map(recorder::view)
                .map(PaymentLinks::link).toList();
        return new Page(shown, more ? shown.getLast().id() : null);
    }

    private static Link link(PaymentRequestView v) {
        var c = v.customer();
        return new Link(v.id(), v.type(), v.status(), v.amount(), v.currency(), v.description(),
                v.externalReference(), v.link().url(), v.paymentId(), v.paymentSessionId(),
                c == null ? null : c.name(), c == null ? null : c.email(), c == null ? null : c.phone(),
                v.refundedAmount(), Instant.parse(v.expiresAt()), Instant.parse(v.createdAt()));
    }
}
