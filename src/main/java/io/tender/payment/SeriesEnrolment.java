package io.tender.payment;

import io.tender.api.Timestamps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Optional;

/**
 * What the success of a {@code first_in_series} session's payment starts (decisions §8), in the transaction that
 * records it, after its card was saved with the processor's token: the mandate, with the customer's acceptance, and
 * for {@code subscription_options} the subscription and its first period. The first payment becomes the mandate's
 * first charge. Once only: the session completes once, and a mandate's first payment is unique.
 */
@Component
record SeriesEnrolment(Mandates mandates, Subscriptions subscriptions, SeriesViews views, SeriesSettings settings) {

    private static final Logger log = LoggerFactory.getLogger(SeriesEnrolment.class);

    /**
     * Creates the mandate (and subscription) of the run's session, whose payment succeeded and saved {@code saved}.
     * Their events go with the run's, after the payment's and the session's.
     */
    void enrol(PaymentSettlement.Run run, SavedPaymentMethod saved) {
        Payment payment = run.payment;
        PaymentSession session = run.session;
        if (saved == null || run.methodToken == null) {
            // The processor approved without keeping the card: nothing can be charged later, so no mandate is made.
            log.error("First payment {} of session {} succeeded, but the processor kept no card to charge later: no"
                    + " mandate was created. The merchant must ask the customer to pay again.", payment.id(),
                    session.id());
            return;
        }
        Instant now = Timestamps.now();
        Mandate.Acceptance acceptance = session.mandateAcceptance() != null ? session.mandateAcceptance()
                : new Mandate.Acceptance(now, null, null);
        MandateTerms terms = session.options().mandateTerms();
        SubscriptionTerms subscriptionTerms = session.options().subscriptionTerms();
        ZoneId zone = terms != null ? terms.timeZone() : subscriptionTerms.timeZone();
        LocalDate firstPaymentDate = LocalDate.ofInstant(views.clock().instant(), zone);
        String subscriptionId = subscriptionTerms == null ? null : Subscription.newId();
        if (terms == null) {
            terms = ofSubscription(subscriptionTerms, firstPaymentDate, zone);
        }
        Mandate mandate = Mandate.created(new Mandate.Terms(Mandate.newId(), payment.merchantId(), payment.mode(),
                session.customerId(), saved.id(), saved.details(), payment.currency(), terms, acceptance, payment.id(),
                subscriptionId, session.metadata(), now));
        mandates.insert(mandate);
        payment.firstChargeOf(mandate.id(), firstPaymentDate);
        session.ofMandate(mandate.id(), subscriptionId);
        run.events.add(() -> views.mandateEvent(mandate, Mandate.Transition.CREATED));
        if (subscriptionTerms == null) {
            return;
        }
        var created = Subscription.create(new Subscription.Terms(subscriptionId, payment.merchantId(), payment.mode(),
                mandate.id(), session.customerId(), payment.currency(), subscriptionTerms, firstPaymentDate,
                payment.id(), now), settings.retryDays().size());
        Subscription subscription = created.subscription();
        subscriptions.insert(subscription);
        created.first().ifPresent(period -> subscriptions.insertPeriod(subscription, period));
        run.events.add(() -> views.subscriptionEvent(subscription, Subscription.Transition.CREATED));
        if (created.first().isEmpty()) {
            // Its end left no date to charge: it is over, and so is its mandate.
            mandate.complete(now);
            mandates.update(mandate);
            run.events.add(() -> views.mandateEvent(mandate, Mandate.Transition.COMPLETED));
        }
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
