package io.tender.subscription;

import io.tender.api.JsonInput;
import io.tender.payment.SeriesTerms;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * A {@code first_in_series} session's terms as this module reads and words them for payments
 * ({@link SeriesTerms}): {@code mandate_options} through {@link MandateTerms}, {@code subscription_options} through
 * {@link SubscriptionTerms}, each in the session's wire form with its defaults; and the sentence the checkout shows
 * ({@link MandateWords}).
 */
@Component
record SeriesOptions(Clock clock) implements SeriesTerms {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public Options read(JsonInput options, Long amount, Instant now) {
        MandateTerms mandate = MandateTerms.read(options, amount);
        SubscriptionTerms subscription = SubscriptionTerms.read(options, amount);
        notBeforeToday(options, "mandate_options", mandate == null ? null : mandate.startDate(),
                mandate == null ? null : mandate.timeZone(), now);
        notBeforeToday(options, "subscription_options", subscription == null ? null : subscription.startDate(),
                subscription == null ? null : subscription.timeZone(), now);
        return new Options(mandate == null ? null : mandate.wire(), subscription == null ? null : subscription.wire());
    }

    /** A subscription without a start date charges first one interval after today's payment. */
    @Override
    public String inWords(Options options, String merchant, String currency) {
        MandateTerms mandate = mandateTerms(options);
        if (mandate != null) {
            return MandateWords.of(mandate, merchant, currency);
        }
        SubscriptionTerms subscription = subscriptionTerms(options);
        LocalDate today = LocalDate.ofInstant(clock.instant(), subscription.timeZone());
        return MandateWords.of(subscription, MandateSchedule.of(subscription, today, subscription.timeZone())
                .firstOnOrAfter(today).orElse(today), merchant, currency);
    }

    /** The mandate's terms of a session with {@code mandate_options}; null otherwise. */
    static MandateTerms mandateTerms(Options options) {
        return options.mandateOptions() == null ? null : MandateTerms.restore(JSON.valueToTree(options.mandateOptions()));
    }

    /** The subscription's terms of a session with {@code subscription_options}; null otherwise. */
    static SubscriptionTerms subscriptionTerms(Options options) {
        return options.subscriptionOptions() == null ? null
                : SubscriptionTerms.restore(JSON.valueToTree(options.subscriptionOptions()));
    }

    /** A series' first date may not have passed already in its zone. */
    private static void notBeforeToday(JsonInput options, String name, LocalDate start, ZoneId zone, Instant now) {
        if (start != null && zone != null) {
            LocalDate today = LocalDate.ofInstant(now, zone);
            options.object(name, false).check(!start.isBefore(today), "start_date",
                    "must not be before today (" + today + " in " + zone.getId() + ")");
        }
    }
}
