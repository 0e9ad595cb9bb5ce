package io.tender.subscription;

import io.tender.payment.Acceptance;
import io.tender.api.Timestamps;
import io.tender.outbox.Outbox;
import io.tender.payment.FirstInSeries;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the success of a {@code first_in_series} session's payment starts (decisions §8), in the transaction that
 * records it, after its card was saved with the processor's token: the mandate, with the customer's acceptance, and
 * for {@code subscription_options} the subscription and its first period. The first payment becomes the mandate's
 * first charge. Once only: the session completes once, and a mandate's first payment is unique.
 */
@Component
record SeriesEnrolment(Mandates mandates, Subscriptions subscriptions, SeriesViews views, SeriesSettings settings)
        implements FirstInSeries {

    /**
     * Creates the mandate (and subscription) of the first payment's session. Their events go with the payment's, after
     * its own and its session's.
     */
    @Override
    public Enrolled enrol(FirstPayment first) {
        List<Supplier<Outbox.Event>> events = new ArrayList<>();
        Instant now = Timestamps.now();
        Acceptance acceptance = first.acceptance() != null ? first.acceptance() : new Acceptance(now, null, null);
        MandateTerms terms = SeriesOptions.mandateTerms(first.terms());
        SubscriptionTerms subscriptionTerms = SeriesOptions.subscriptionTerms(first.terms());
        ZoneId zone = terms != null ? terms.timeZone() : subscriptionTerms.timeZone();
        LocalDate firstPaymentDate = LocalDate.ofInstant(views.clock().instant(), zone);
        String subscriptionId = subscriptionTerms == null ? null : Subscription.newId();
        if (terms == null) {
            terms = ofSubscription(subscriptionTerms, firstPaymentDate, zone);
        }
        Mandate mandate = Mandate.created(new Mandate.Terms(Mandate.newId(), first.merchantId(), first.mode(),
                first.customerId(), first.paymentMethodId(), first.paymentMethodDetails(), first.currency(), terms,
                acceptance, first.paymentId(), subscriptionId, first.metadata(), now));
        mandates.insert(mandate);
        events.add(() -> views.mandateEvent(mandate, Mandate.Transition.CREATED));
        var enrolled = new Enrolled(mandate.id(), subscriptionId, firstPaymentDate, events);
        if (subscriptionTerms == null) {
            return enrolled;
        }
        var created = Subscription.create(new Subscription.Terms(subscriptionId, first.merchantId(), first.mode(),
                mandate.id(), first.customerId(), first.currency(), subscriptionTerms, firstPaymentDate,
                first.paymentId(), now), settings.retryDays().size());
        Subscription subscription = created.subscription();
        subscriptions.insert(subscription);
        created.first().ifPresent(period -> subscriptions.insertPeriod(subscription, period));
        events.add(() -> views.subscriptionEvent(subscription, Subscription.Transition.CREATED));
        if (created.first().isEmpty()) {
            // Its end left no date to charge: it is over, and so is its mandate.
            mandate.complete(now);
            mandates.update(mandate);
            events.add(() -> views.mandateEvent(mandate, Mandate.Transition.COMPLETED));
        }
        return enrolled;
    }

    /**
     * The mandate of a subscription: its interval from its anchor, from its first charge to its end date, or to its
     * last charge's date when it has a count.
     */
    private static MandateTerms ofSubscription(SubscriptionTerms terms, LocalDate firstPaymentDate, ZoneId zone) {
        MandateSchedule schedule = MandateSchedule.of(terms, firstPaymentDate, zone);
        Optional<LocalDate> first = schedule.firstOnOrAfter(firstPaymentDate);
        LocalDate end = terms.count() != null ? schedule.last().orElse(null) : terms.endDate();
        LocalDate start = first.orElse(firstPaymentDate);
        return MandateTerms.ofSubscription(terms, terms.startDate() != null ? terms.startDate() : firstPaymentDate,
                terms.startDate() != null ? 0 : 1, start, end != null && end.isBefore(start) ? start : end, zone);
    }
}
