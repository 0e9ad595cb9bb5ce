package io.tender.payment;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import io.tender.auth.Mode;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** A validated {@code POST /collect/payment_sessions} body (decisions §6). */
record NewPaymentSession(String type, Long amount, String currency, String country, PaymentObligations.Kind target,
                         String targetReference, String customer, String externalReference,
                         Map<String, String> metadata, Instant expiresAt, SessionOptions options, Instant requestedAt,
                         String paymentMethodId, String mandateId) {

    /** A session opened for a one-time payment (Collect's payment requests and pages open these). */
    NewPaymentSession(String type, Long amount, String currency, String country, PaymentObligations.Kind target,
                      String targetReference, String customer, String externalReference,
                      Map<String, String> metadata, Instant expiresAt, SessionOptions options, Instant requestedAt) {
        this(type, amount, currency, country, target, targetReference, customer, externalReference, metadata,
                expiresAt, options, requestedAt, null, null);
    }

    static final long MAX_AMOUNT = Payments.MAX_AMOUNT;
    static final Duration MIN_LIFETIME = Duration.ofMinutes(30);
    static final Duration MAX_LIFETIME = Duration.ofDays(7);
    static final Duration DEFAULT_LIFETIME = Duration.ofHours(24);
    private static final String REFERENCE_PATTERN = "^[a-zA-Z0-9_-]+$";
    private static final String CUSTOMER_PATTERN = "^bcus_[a-f0-9]{24}$";
    static final Pattern EXTERNAL_REFERENCE = Pattern.compile(REFERENCE_PATTERN);
    private static final Pattern COUNTRY = Pattern.compile("^[A-Z]{2}$");
    static final Pattern CUSTOMER = Pattern.compile(CUSTOMER_PATTERN);
    private static final Pattern PAYMENT_METHOD = io.tender.api.Ids.pattern(SavedPaymentMethod.PREFIX);
    private static final Pattern MANDATE = io.tender.api.Ids.pattern("mdt_");
    private static final Set<String> FIELDS = JsonInput.properties(Body.class);

    /** The body as the API documents it (the OpenAPI schema); {@link #parse} allows exactly its properties. */
    @Schema(name = "CreatePaymentSessionRequest")
    record Body(
            @Schema(minimum = "0", maximum = "99999999", description = "Minor units; 0 verifies a card. Optional with `bill` or `account` (defaults to what is outstanding).") Long amount,
            @Schema(minLength = 3, maxLength = 3, example = "ZAR", description = "Optional with `bill` or `account`.") String currency,
            @Schema(allowableValues = {"one_time", "first_in_series", "next_in_series"}, defaultValue = "one_time") String type,
            @Schema(minLength = 2, maxLength = 2, defaultValue = "ZA") String country,
            SessionOptions options,
            @Schema(maxLength = 255, pattern = REFERENCE_PATTERN) String externalReference,
            @Schema(description = "At most 20 keys of 1-40 characters; values at most 500 characters.") Map<String, String> metadata,
            @Schema(description = "A bill id or external_reference: the payment is applied to it.") String bill,
            @Schema(description = "An account id or external_reference: the payment is applied to its balance.") String account,
            @Schema(pattern = CUSTOMER_PATTERN) String customer,
            @Schema(pattern = CUSTOMER_PATTERN) String customerId,
            @Schema(pattern = "^pm_[a-f0-9]{24}$", description = "Only with `type` `next_in_series`: the saved payment method to charge (under its active mandate).") String paymentMethodId,
            @Schema(pattern = "^mdt_[a-f0-9]{24}$", description = "Only with `type` `next_in_series`: the mandate to charge (instead of, or with, `payment_method_id`).") String mandateId,
            @Schema(format = "date-time", description = "30 minutes to 7 days ahead; default 24 hours.") String expiresAt) {
    }

    boolean verification() {
        return amount != null && amount == 0;
    }

    /** The body of a session of {@code mode} at {@code now}; {@code terms} reads a {@code first_in_series} one's terms. */
    static NewPaymentSession parse(JsonNode body, Mode mode, Instant now, SeriesTerms terms) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        String type = in.string("type", false);
        if (type == null) {
            type = "one_time";
        }
        in.check(Set.of("one_time", "first_in_series", "next_in_series").contains(type), "type",
                "must be one_time, first_in_series or next_in_series");
        PaymentObligations.Named obligation = PaymentObligations.Named.read(in, "bill");
        boolean forObligation = obligation != null;
        Long amount = in.integer("amount", !forObligation, 0, MAX_AMOUNT);
        String currency = Currencies.read(in, "currency", !forObligation);
        String country = in.string("country", false, 2, 2, COUNTRY, "must be an ISO 3166-1 alpha-2 code such as ZA");
        if (country == null) {
            country = "ZA";
        }
        String customer = in.string("customer", false, 1, 40, CUSTOMER, "must be a customer id (bcus_…)");
        String customerId = in.string("customer_id", false, 1, 40, CUSTOMER, "must be a customer id (bcus_…)");
        in.check(customer == null || customerId == null || customer.equals(customerId), "customer_id",
                "must name the same customer as customer");
        boolean firstInSeries = PaymentSession.FIRST_IN_SERIES.equals(type);
        boolean nextInSeries = PaymentSession.NEXT_IN_SERIES.equals(type);
        for (String name : List.of("payment_method_id", "mandate_id")) {
            in.check(!in.has(name) || nextInSeries, name, "belongs to next_in_series sessions");
        }
        String paymentMethodId = in.string("payment_method_id", false, 1, 40, PAYMENT_METHOD,
                "must be a payment method id (pm_…)");
        String mandateId = in.string("mandate_id", false, 1, 40, MANDATE, "must be a mandate id (mdt_…)");
        if (firstInSeries || nextInSeries) {
            in.check(!forObligation, in.has("bill") ? "bill" : "account",
                    "series sessions are not for a bill or account");
            in.check(customer != null || customerId != null, nextInSeries ? "customer_id" : "customer",
                    "is required for " + type + ": a mandate is the customer's");
        }
        if (nextInSeries) {
            in.check(paymentMethodId != null || mandateId != null || in.has("payment_method_id")
                    || in.has("mandate_id"), "payment_method_id", "give payment_method_id or mandate_id to charge");
            in.check(amount == null || amount > 0, "amount", "must be at least 1 for next_in_series");
            for (String name : List.of("options", "expires_at")) {
                in.check(!in.has(name), name, "does not apply to next_in_series: the charge is made at once, "
                        + "without the customer or a checkout");
            }
        }
        String externalReference = in.string("external_reference", false, 1, 255, EXTERNAL_REFERENCE,
                "must match " + REFERENCE_PATTERN);
        Map<String, String> metadata = in.metadata("metadata");
        Instant expires = in.timestamp("expires_at", false);
        in.check(expires, e -> nextInSeries || (!e.isBefore(now.plus(MIN_LIFETIME))
                && !e.isAfter(now.plus(MAX_LIFETIME))), "expires_at", "must be 30 minutes to 7 days from now");
        Instant expiresAt = expires == null ? now.plus(DEFAULT_LIFETIME) : expires;
        boolean verification = amount != null && amount == 0;
        in.check(!verification || !forObligation, "amount", "must be at least 1 for a bill or account");
        SessionOptions options = SessionOptions.read(in, country, mode == Mode.TEST, verification, type, amount, now,
                terms);
        in.check(!forObligation || options.captureMethod() == CaptureMethod.AUTOMATIC,
                "options.payment_method_options.card.capture_method",
                "must be automatic for a bill or account: a payment is applied when it is received");
        in.throwIfInvalid();
        return new NewPaymentSession(type, amount, currency, country,
                forObligation ? obligation.kind() : null, forObligation ? obligation.reference() : null,
                customer != null ? customer : customerId, externalReference, metadata,
                expiresAt, options, now, paymentMethodId, mandateId);
    }
}
