package io.tender.refund;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.payment.CapturedPayments;
import io.tender.payment.PaymentError;
import io.tender.outbox.EventLog;
import io.tender.outbox.OutboxEvent;
import io.tender.webhook.WebhookDeliveryLog;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A payment's page on the dashboard (decisions §11): what happened to one payment, oldest first: its processor calls
 * (authorizations, captures, voids), its refunds, and its events and theirs, each event with what became of its
 * webhook deliveries. Scoped by merchant and mode like every read: another merchant's payment, the other mode's and an
 * unknown id all have an empty timeline.
 */
@Service
public record PaymentTimeline(CapturedPayments payments, Refunds refunds, EventLog events,
                              WebhookDeliveryLog deliveries) {

    /** One thing that happened to the payment, at {@link #at}. */
    public sealed interface Entry {
        Instant at();
    }

    /**
     * A processor call: {@code type} {@code authorize} (an attempt), {@code capture} or {@code void}; {@code status}
     * {@code pending}, {@code unknown} (sent, no definite answer yet), {@code succeeded} or {@code failed} with the
     * processor's {@code error}.
     */
    public record Operation(Instant at, String type, String status, long amount, PaymentError error) implements Entry {
    }

    /** A refund as it stands now ({@code pending}, {@code succeeded}, {@code failed} with its reason), when made. */
    public record RefundMade(Instant at, String refundId, long amount, String status, String failureReason)
            implements Entry {
    }

    /** An event of the payment or of one of its refunds, and its deliveries to the merchant's webhook endpoints. */
    public record Event(Instant at, String eventId, String type, List<WebhookDeliveryLog.Delivery> deliveries)
            implements Entry {
    }

    /** The payment's timeline in time order (what happened at the same instant, in the order listed above). */
    public List<Entry> of(String merchantId, Mode mode, String paymentId) {
        Caller caller = Caller.system(merchantId, mode);
        if (payments.find(caller, paymentId).isEmpty()) {
            return List.of();
        }
        List<Entry> entries = new ArrayList<>();
        payments.calls(caller, paymentId).forEach(call -> entries.add(new Operation(call.at(), call.type(),
                call.status(), call.amount(), call.error())));
        List<Refund> made = refunds.ofPayment(paymentId);
        made.forEach(r -> entries.add(new RefundMade(r.terms().createdAt(), r.id(), r.amount(), r.status().wire(),
                r.failureReason())));
        List<OutboxEvent> logged = events.ofAggregates(caller,
                Stream.concat(Stream.of(paymentId), made.stream().map(Refund::id)).toList());
        Map<String, List<WebhookDeliveryLog.Delivery>> delivered = deliveries.ofEvents(caller,
                logged.stream().map(OutboxEvent::id).toList());
        logged.forEach(e -> entries.add(new Event(e.createdAt(), e.id(), e.type(),
                delivered.getOrDefault(e.id(), List.of()))));
        // A stable sort: at one instant, calls before refunds before events, each in its own order.
        entries.sort(Comparator.comparing(Entry::at));
        return List.copyOf(entries);
    }
}
