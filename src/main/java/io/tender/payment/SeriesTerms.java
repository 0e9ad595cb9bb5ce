package io.tender.payment;

import io.tender.api.JsonInput;

import java.time.Instant;
import java.util.Map;

/**
 * The terms of a {@code first_in_series} session (decisions §8): its {@code options.mandate_options} or
 * {@code options.subscription_options}, which the module owning mandates and subscriptions reads, checks and words.
 * That module implements this; payments only call it, so the dependency goes one way (as with
 * {@link PaymentObligations}). The session keeps the options as read, with their defaults, and echoes them.
 */
public interface SeriesTerms {

    /** A session's series options as stored and echoed, in wire form: at most one of them is given. */
    record Options(Map<String, Object> mandateOptions, Map<String, Object> subscriptionOptions) {

        static final Options NONE = new Options(null, null);
    }

    /**
     * Reads and checks the series options in a session's {@code options}, reporting each broken rule on its field
     * ({@code in} collects them); {@code amount}: the session's (a subscription's default), or null; no first date may
     * be before {@code now}'s date in its zone. Neither given: {@link Options#NONE}.
     */
    Options read(JsonInput options, Long amount, Instant now);

    /**
     * What the customer agrees to by paying, in plain words, as the checkout states it above the pay button ("You
     * allow Acme to charge this card ZAR 99.00 every month on the 1st, from 1 December 2026.").
     */
    String inWords(Options options, String merchant, String currency);
}
