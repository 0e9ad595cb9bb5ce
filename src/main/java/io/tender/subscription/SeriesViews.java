package io.tender.subscription;

import io.tender.outbox.Outbox;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Mandates and subscriptions as the API and their events show them (decisions §8), on the date it is for each: its
 * zone's, or its subscription's test clock's when that is later.
 */
@Component
record SeriesViews(Mandates mandates, Subscriptions subscriptions, JsonMapper json, Clock clock) {

    static final String MANDATE_AGGREGATE = "collect.mandate";
    static final String SUBSCRIPTION_AGGREGATE = "collect.subscription";

    MandateView mandate(Mandate m) {
        LocalDate today = today(m);
        Mandate.Usage usage = m.schedule().period(today)
                .map(p -> mandates.usage(m.id(), p.start(), p.end())).orElse(null);
        return MandateView.of(m, today, usage);
    }

    /** The date it is for the mandate now: in its zone, or on its subscription's test clock when that is later. */
    LocalDate today(Mandate m) {
        LocalDate real = LocalDate.ofInstant(clock.instant(), m.terms().timeZone());
        if (m.fixed().subscriptionId() == null) {
            return real;
        }
        return subscriptions.clockDate(m.fixed().subscriptionId()).filter(c -> c.isAfter(real)).orElse(real);
    }

    Outbox.Event mandateEvent(Mandate m, Mandate.Transition transition) {
        return new Outbox.Event(MANDATE_AGGREGATE, m.id(), transition.eventType(), m.updatedAt(),
                json.writeValueAsBytes(mandate(m)));
    }

    Outbox.Event subscriptionEvent(Subscription s, Subscription.Transition transition) {
        return new Outbox.Event(SUBSCRIPTION_AGGREGATE, s.id(), transition.eventType(), s.updatedAt(),
                json.writeValueAsBytes(SubscriptionView.of(s)));
    }

    /**
     * {@code mandate.payment_upcoming} (decisions §8): the charge of {@code period} is coming, on its date, for its
     * amount. Its data names the mandate, the subscription and the customer.
     */
    Outbox.Event upcoming(Subscription s, Subscription.Period period, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("mandate_id", s.fixed().mandateId());
        data.put("subscription_id", s.id());
        data.put("customer_id", s.fixed().customerId());
        data.put("date", period.chargeDate().toString());
        data.put("amount", period.amount());
        data.put("currency", s.fixed().currency());
        data.put("period", period.number());
        return new Outbox.Event(MANDATE_AGGREGATE, s.fixed().mandateId(), "mandate.payment_upcoming", now,
                json.writeValueAsBytes(data));
    }
}
