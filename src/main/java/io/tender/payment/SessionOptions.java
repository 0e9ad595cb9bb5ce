package io.tender.payment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.JsonInput;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A session's {@code options} (decisions §6), validated and with their defaults: what the checkout shows and how the
 * card is captured. Echoed in the session as the merchant would read them back.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record SessionOptions(CheckoutOptions checkoutOptions, PaymentMethodOptions paymentMethodOptions,
                      @Schema(implementation = MandateOptionsSchema.class, description = "`first_in_series` (decisions §8): the mandate the customer agrees to by paying, as the mandate holds it (defaults included).") Map<String, Object> mandateOptions,
                      @Schema(implementation = SubscriptionOptionsSchema.class, description = "`first_in_series` (decisions §8): the subscription Tender charges after the first payment (defaults included).") Map<String, Object> subscriptionOptions) {

    SessionOptions(CheckoutOptions checkoutOptions, PaymentMethodOptions paymentMethodOptions) {
        this(checkoutOptions, paymentMethodOptions, null, null);
    }

    /**
     * A session's options where nothing is asked but these: the redirect checkout offering {@code visible} methods,
     * the merchant's {@code returnUrl} (or null), cards captured at once, nothing prefilled.
     */
    static SessionOptions redirect(String returnUrl, List<String> visible) {
        return new SessionOptions(new CheckoutOptions(returnUrl, "redirect", null, "gateway", visible, null, null),
                new PaymentMethodOptions(Map.of("capture_method", "automatic"), null, null, null));
    }

    /** The series terms of a {@code first_in_series} session, as read and echoed ({@link SeriesTerms}). */
    SeriesTerms.Options series() {
        return new SeriesTerms.Options(mandateOptions, subscriptionOptions);
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record CheckoutOptions(
            @Schema(format = "uri", maxLength = 2000, description = "An https URL (or http on localhost in test mode); required with `payment_method_selection` `merchant`.") String returnUrl,
            @Schema(allowableValues = {"redirect", "embedded_modal", "embedded_inline"}, defaultValue = "redirect") String presentationMode,
            @Schema(description = "Embedded modes only.") Boolean displayPayButton,
            @Schema(allowableValues = {"gateway", "merchant"}, defaultValue = "gateway") String paymentMethodSelection,
            @ArraySchema(schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"})) List<String> visiblePaymentMethods,
            @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"}) String selectedPaymentMethod,
            @Schema(allowableValues = {"always", "never", "prompt"}) String savePaymentMethod) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PaymentMethodOptions(@Schema(implementation = CardOption.class) Map<String, String> card,
                                @Schema(implementation = PhoneOption.class) Map<String, String> mobileMoney,
                                @Schema(implementation = PhoneOption.class) Map<String, String> capitecPay,
                                @Schema(allowableValues = {"review", "auto_advance"}) String prefillMode) {
    }

    /** The schema of {@code payment_method_options.card} (read by {@link #read}). */
    @Schema(name = "CardPaymentMethodOptions")
    record CardOption(@Schema(allowableValues = {"automatic", "manual"}, defaultValue = "automatic") String captureMethod) {
    }

    /** The schema of {@code payment_method_options.mobile_money} and {@code .capitec_pay} (read by {@link #phone}). */
    @Schema(name = "PhonePaymentMethodOptions")
    record PhoneOption(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, pattern = "^\\+[1-9][0-9]{6,14}$",
            example = "+27821234567", description = "E.164, of the session's country.") String phoneNumber) {
    }

    static final Pattern E164 = Pattern.compile("^\\+[1-9][0-9]{6,14}$");
    private static final Map<String, String> DIALLING = Map.of("ZA", "+27", "KE", "+254", "GH", "+233", "NG", "+234",
            "UG", "+256", "TZ", "+255", "ZM", "+260", "BW", "+267", "NA", "+264");

    boolean merchantSelection() {
        return "merchant".equals(checkoutOptions.paymentMethodSelection());
    }

    CaptureMethod captureMethod() {
        return paymentMethodOptions.card() != null && "manual".equals(paymentMethodOptions.card().get("capture_method"))
                ? CaptureMethod.MANUAL : CaptureMethod.AUTOMATIC;
    }

    List<String> visibleMethods() {
        return checkoutOptions.visiblePaymentMethods();
    }

    /** The phone number the merchant prefilled for a bank-app or mobile-money method, if any. */
    String prefilledPhone(PaymentMethodType type) {
        Map<String, String> method = type == PaymentMethodType.MOBILE_MONEY ? paymentMethodOptions.mobileMoney()
                : type == PaymentMethodType.CAPITEC_PAY ? paymentMethodOptions.capitecPay() : null;
        return method == null ? null : method.get("phone_number");
    }

    SessionOptions withSelection(String selected, List<String> visible) {
        var c = checkoutOptions;
        return new SessionOptions(new CheckoutOptions(c.returnUrl(), c.presentationMode(), c.displayPayButton(),
                c.paymentMethodSelection(), visible != null ? visible : c.visiblePaymentMethods(),
                selected != null ? selected : c.selectedPaymentMethod(), c.savePaymentMethod()), paymentMethodOptions,
                mandateOptions, subscriptionOptions);
    }

    /** Whether the phone number belongs to the country (E.164 with its dialling code). */
    static boolean phoneOfCountry(String phone, String country) {
        String code = DIALLING.get(country);
        return phone != null && E164.matcher(phone).matches() && (code == null || phone.startsWith(code));
    }

    /**
     * Reads {@code options} of a session of {@code type}; {@code test}: http return URLs on localhost are allowed
     * (test mode). A {@code first_in_series} session takes {@code mandate_options} or {@code subscription_options}
     * (one of them, read by {@code terms}), cards only, captured at once and saved.
     */
    static SessionOptions read(JsonInput parent, String country, boolean test, boolean verification, String type,
                               Long amount, Instant now, SeriesTerms terms) {
        JsonInput in = parent.object("options", false);
        boolean series = PaymentSession.FIRST_IN_SERIES.equals(type);
        SeriesTerms.Options seriesOptions = SeriesTerms.Options.NONE;
        if (in != null) {
            in.allow(Set.of("checkout_options", "payment_method_options", "mandate_options", "subscription_options"));
            if (!series) {
                for (String name : List.of("mandate_options", "subscription_options")) {
                    in.check(!in.has(name), name, "belongs to first_in_series sessions");
                }
            } else {
                in.check(!(in.has("mandate_options") && in.has("subscription_options")), "subscription_options",
                        "give mandate_options or subscription_options, not both: a subscription makes its own mandate");
                seriesOptions = terms.read(in, amount, now);
            }
        }
        if (series && (in == null || (!in.has("mandate_options") && !in.has("subscription_options")))) {
            parent.reject("options", "first_in_series needs mandate_options or subscription_options: the terms the"
                    + " customer agrees to");
        }
        JsonInput checkout = in == null ? null : in.object("checkout_options", false);
        String returnUrl = null;
        String presentation = "redirect";
        Boolean payButton = null;
        String selection = "gateway";
        List<String> visible = PaymentMethodType.WIRE;
        String selected = null;
        String save = null;
        if (checkout != null) {
            checkout.allow(Set.of("return_url", "presentation_mode", "display_pay_button", "payment_method_selection",
                    "visible_payment_methods", "selected_payment_method", "save_payment_method"));
            returnUrl = checkout.line("return_url", false, 1, 2000);
            if (returnUrl != null) {
                checkout.check(returnUrlAllowed(returnUrl, test), "return_url",
                        test ? "must be an https URL (or http on localhost in test mode)" : "must be an https URL");
            }
            presentation = oneOf(checkout, "presentation_mode", Set.of("redirect", "embedded_modal", "embedded_inline"), "redirect");
            payButton = checkout.bool("display_pay_button", false);
            if (payButton != null) {
                checkout.check(!presentation.equals("redirect"), "display_pay_button", "applies to embedded modes only");
            }
            selection = oneOf(checkout, "payment_method_selection", Set.of("gateway", "merchant"), "gateway");
            checkout.check(!selection.equals("merchant") || returnUrl != null, "return_url",
                    "is required with payment_method_selection merchant");
            List<String> types = PaymentMethodType.readList(checkout, "visible_payment_methods");
            if (types != null) {
                visible = types;
            }
            String chosen = checkout.string("selected_payment_method", false);
            if (chosen != null) {
                selected = PaymentMethodType.fromWire(chosen).map(PaymentMethodType::wire).orElse(null);
                checkout.check(selected != null, "selected_payment_method",
                        "must be one of " + String.join(", ", PaymentMethodType.WIRE));
            }
            save = oneOf(checkout, "save_payment_method", Set.of("always", "never", "prompt"), null);
        }
        if (!presentation.equals("redirect") && payButton == null) {
            payButton = true;
        }
        if (verification) {
            parent.check(visible.contains("card"), "amount", "0 (a verification) takes cards only");
            visible = List.of("card");
        }
        if (series) {
            // Only a card is charged again without the customer (decisions §8); it is saved for that.
            if (checkout != null && checkout.has("visible_payment_methods")) {
                checkout.check(visible.equals(List.of("card")), "visible_payment_methods",
                        "must be [\"card\"] for first_in_series: only a card is charged again without the customer");
            }
            if (checkout != null) {
                checkout.check(save == null || save.equals("always"), "save_payment_method",
                        "must be always for first_in_series: the card is saved for the mandate");
            }
            visible = List.of("card");
            save = "always";
        }
        JsonInput methods = in == null ? null : in.object("payment_method_options", false);
        Map<String, String> card = Map.of("capture_method", "automatic");
        Map<String, String> mobileMoney = null;
        Map<String, String> capitecPay = null;
        String prefill = null;
        if (methods != null) {
            methods.allow(Set.of("card", "mobile_money", "capitec_pay", "prefill_mode"));
            JsonInput cardIn = methods.object("card", false);
            if (cardIn != null) {
                cardIn.allow(Set.of("capture_method"));
                card = Map.of("capture_method", oneOf(cardIn, "capture_method", Set.of("automatic", "manual"), "automatic"));
            }
            mobileMoney = phone(methods, "mobile_money", country);
            capitecPay = phone(methods, "capitec_pay", country);
            prefill = oneOf(methods, "prefill_mode", Set.of("review", "auto_advance"), null);
        }
        if (verification) {
            card = Map.of("capture_method", "automatic");
        }
        if (series && methods != null && methods.object("card", false) != null) {
            methods.object("card", false).check(!"manual".equals(card.get("capture_method")), "capture_method",
                    "must be automatic for first_in_series");
        }
        return new SessionOptions(new CheckoutOptions(returnUrl, presentation, payButton, selection, visible, selected,
                save), new PaymentMethodOptions(card, mobileMoney, capitecPay, prefill), seriesOptions.mandateOptions(),
                seriesOptions.subscriptionOptions());
    }

    /** The schema of {@code mandate_options} (read through {@link SeriesTerms#read}). */
    @Schema(name = "MandateOptions", description = "What the customer agrees to be charged later (decisions §8). A `scheduled` or `installment` mandate takes exactly one execution constraint; `on_demand` none. Every date is a date in `time_zone`.")
    record MandateOptionsSchema(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = {"scheduled", "on_demand", "installment"}) String type,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, implementation = MandateAmountSchema.class) Object amount,
            @Schema(minimum = "-1", maximum = "31", description = "1 to 31, or -1 for the last day of the month; a short month's last day stands in for a missing one.") Integer dayOfMonth,
            @Schema(minimum = "1", maximum = "7", description = "Monday 1 to Sunday 7.") Integer dayOfWeek,
            @Schema(minimum = "1", maximum = "366", description = "366 is 31 December in a 365-day year.") Integer dayOfYear,
            @Schema(implementation = NthDayOfMonthSchema.class) Object nthDayOfMonth,
            @Schema(implementation = PeriodLimitSchema.class) Object periodLimit,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, format = "date", description = "Not before today.") String startDate,
            @Schema(format = "date", description = "Inclusive.") String endDate,
            @Schema(minimum = "1", maximum = "1000", description = "`installment` only: how many scheduled charges (the first payment not among them).") Integer installments,
            @Schema(defaultValue = "Africa/Johannesburg", description = "An IANA time zone.") String timeZone) {
    }

    @Schema(name = "MandateAmount", description = "`{\"type\": \"fixed\", \"value\"}` or `{\"type\": \"variable\", \"min\", \"max\"}` (minor units).")
    record MandateAmountSchema(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = {"fixed", "variable"}) String type,
                               @Schema(minimum = "1", maximum = "99999999") Long value,
                               @Schema(minimum = "1", maximum = "99999999") Long min,
                               @Schema(minimum = "1", maximum = "99999999") Long max) {
    }

    @Schema(name = "NthDayOfMonth")
    record NthDayOfMonthSchema(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "-1", maximum = "4", description = "1 to 4, or -1 for the last.") Integer n,
                               @Schema(requiredMode = Schema.RequiredMode.REQUIRED, minimum = "1", maximum = "7") Integer dayOfWeek) {
    }

    @Schema(name = "PeriodLimit", description = "At most `max_amount` and/or `max_count` charges per period (failed charges do not count); the first payment counts in its period.")
    record PeriodLimitSchema(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = {"week", "month", "year"}) String period,
                             @Schema(allowableValues = {"calendar", "cycle"}, defaultValue = "calendar") String alignment,
                             @Schema(minimum = "1", maximum = "99999999") Long maxAmount,
                             @Schema(minimum = "1", maximum = "1000") Integer maxCount) {
    }

    /** The schema of {@code subscription_options} (read through {@link SeriesTerms#read}). */
    @Schema(name = "SubscriptionOptions", description = "A subscription Tender charges itself after the first payment (decisions §8).")
    record SubscriptionOptionsSchema(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = {"daily", "weekly", "monthly"}) String interval,
            @Schema(minimum = "1", maximum = "12", defaultValue = "1") Integer intervalCount,
            @Schema(minimum = "1", maximum = "99999999", description = "Each charge; default: the session's amount.") Long amount,
            @Schema(format = "date", description = "The first charge; default: one interval after the first payment.") String startDate,
            @Schema(format = "date", description = "The last day a charge may fall on (inclusive); or give `count`.") String endDate,
            @Schema(minimum = "1", maximum = "1000", description = "How many charges after the first payment.") Integer count,
            @Schema(minimum = "0", maximum = "30", defaultValue = "2", description = "`mandate.payment_upcoming` this many days before each charge; 0: none.") Integer noticeDays,
            @Schema(allowableValues = {"unpaid", "cancelled"}, defaultValue = "unpaid", description = "What the subscription becomes after its last retry, or a hard decline.") String onFinalFailure,
            @Schema(defaultValue = "Africa/Johannesburg", description = "An IANA time zone: where its dates are dates.") String timeZone) {
    }

    private static Map<String, String> phone(JsonInput methods, String name, String country) {
        JsonInput in = methods.object(name, false);
        if (in == null) {
            return null;
        }
        in.allow(Set.of("phone_number"));
        String phone = in.string("phone_number", true);
        if (phone == null) {
            return null;
        }
        in.check(phoneOfCountry(phone, country), "phone_number", "must be an E.164 number of the session's country");
        return Map.of("phone_number", phone);
    }

    private static String oneOf(JsonInput in, String name, Set<String> allowed, String fallback) {
        String value = in.string(name, false);
        if (value == null) {
            return fallback;
        }
        in.check(allowed.contains(value), name, "must be one of " + String.join(", ", new java.util.TreeSet<>(allowed)));
        return allowed.contains(value) ? value : fallback;
    }

    static boolean returnUrlAllowed(String url, boolean test) {
        try {
            var uri = new java.net.URI(url);
            if (uri.getHost() == null) {
                return false;
            }
            if ("https".equals(uri.getScheme())) {
                return true;
            }
            return test && "http".equals(uri.getScheme())
                    && (uri.getHost().equals("localhost") || uri.getHost().equals("127.0.0.1"));
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
