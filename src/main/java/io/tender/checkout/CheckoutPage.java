package io.tender.checkout;

import io.tender.payment.PaymentMethodType;

import java.time.Instant;
import java.util.List;

/**
 * A payment session as its checkout page needs it: what to show (merchant, amount, methods), how it is presented,
 * and where the customer stands. {@link Checkout} answers it for every action; it holds nothing secret (no API key,
 * no card number).
 *
 * @param checkoutSessionId the {@code ckt_} id in {@code session_url}
 * @param paymentSessionId  the {@code ps_} id the merchant knows, given back on {@code return_url}
 * @param merchantName      the merchant's display name
 * @param testMode          a test-mode session (the page says so)
 * @param amount            minor units
 * @param country           ISO 3166-1 alpha-2 of the session (phone numbers are of this country)
 * @param visibleMethods    the methods offered, in the checkout's order, never empty
 * @param selectedMethod    the method chosen by the merchant ({@code selected_payment_method}), or null
 * @param returnUrl         where the customer goes back to, or null
 * @param prefilledPhone    a phone number the merchant gave ({@code payment_method_options}), or null
 * @param action            the page the attempt in flight waits on ({@link State#ACTION_REQUIRED}), or null
 * @param lastError         why the latest attempt failed, or null
 * @param attempts          attempts made so far
 * @param maxAttempts       attempts allowed (5, decisions §6)
 * @param paidWith          how the successful attempt paid, for the result page ("VISA •••• 4242"), or null
 * @param origin            the payment request or page visit the session is for (decisions §7), or null
 * @param seriesTerms       a {@code first_in_series} session's terms in plain words, which the customer agrees to by
 *                          paying (decisions §8); null for other sessions
 */
public record CheckoutPage(String checkoutSessionId, String paymentSessionId, String merchantName, boolean testMode,
                              long amount, String currency, String country, List<PaymentMethodType> visibleMethods,
                              PaymentMethodType selectedMethod, PresentationMode presentationMode,
                              boolean displayPayButton, boolean merchantSelection, String returnUrl,
                              String prefilledPhone, State state, PendingAction action, AttemptError lastError,
                              int attempts, int maxAttempts, String paidWith, boolean manualCapture,
                              Instant expiresAt, Origin origin, String seriesTerms) {

    public CheckoutPage {
        visibleMethods = List.copyOf(visibleMethods);
    }

    /**
     * What the session was opened for besides the merchant's own checkout: a payment request or a visit to a payment
     * page. {@code title} and {@code description} are shown above the amount; {@code backUrl} (a page's own URL)
     * gives a back link; without {@code cancellable} the page offers no Cancel button. {@code status}: the origin's
     * own where the result page words it (a payment request that {@code failed}), or null.
     */
    public record Origin(String kind, String title, String description, String backUrl, boolean cancellable,
                         String status) {

        public boolean paymentRequest() {
            return "payment_request".equals(kind);
        }

        /** A payment request whose push was declined: its session ended cancelled, but nobody cancelled it. */
        public boolean failedRequest() {
            return paymentRequest() && "failed".equals(status);
        }
    }

    /** Whether the page offers the customer a Cancel button (a request's link, or a page visit, may not). */
    public boolean cancellable() {
        return origin == null || origin.cancellable();
    }

    /** Where the customer stands. */
    public enum State {
        /** The customer may start an attempt (again, after a decline: {@code lastError} says why). */
        OPEN,
        /** The attempt in flight waits for the customer on a 3-D Secure or bank page ({@code action}). */
        ACTION_REQUIRED,
        /** The attempt in flight waits for an approval elsewhere (the bank app) or for the processor's answer. */
        WAITING,
        /** {@code payment_method_selection: merchant}: the attempt is over and the merchant decides what comes next. */
        RETURNED_TO_MERCHANT,
        /** Paid, reserved (manual capture) or verified. */
        SUCCEEDED,
        /** Every attempt was used without success. */
        FAILED,
        CANCELLED,
        EXPIRED;

        public boolean finished() {
            return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == EXPIRED;
        }
    }

    /** {@code options.checkout_options.presentation_mode}. */
    public enum PresentationMode {
        REDIRECT, EMBEDDED_MODAL, EMBEDDED_INLINE;

        public boolean embedded() {
            return this != REDIRECT;
        }
    }

    /**
     * The page an attempt waits on: a 3-D Secure challenge (card) or the bank's approval (pay by bank). In test mode
     * it is the sandbox's own page; in live mode {@code redirectUrl} is the processor's (an absolute https URL the
     * adapter checked), else null.
     */
    public record PendingAction(Kind kind, String bank, String redirectUrl) {
        public enum Kind {
            THREE_D_SECURE, BANK
        }
    }

    /**
     * A failed attempt as the customer reads it.
     *
     * @param code    the decline code ({@code insufficient_funds}) or error code ({@code card_declined})
     * @param message a sentence for the customer, free of anything the customer typed
     */
    public record AttemptError(String code, String message) {
    }

    /** {@code ZAR 150.00}: the currency code and the amount in major units, as the live product shows it. */
    public String displayAmount() {
        return io.tender.api.Currencies.display(amount, currency);
    }

    public int attemptsLeft() {
        return Math.max(0, maxAttempts - attempts);
    }

    /** The outcome of the latest attempt for {@code return_url}'s {@code outcome} parameter and the embedded page. */
    public String outcome() {
        return switch (state) {
            case SUCCEEDED -> manualCapture ? "reserved" : "paid";
            case FAILED, RETURNED_TO_MERCHANT -> "failed";
            case CANCELLED -> "cancelled";
            case EXPIRED -> "expired";
            case OPEN -> lastError == null ? "not_started" : "failed";
            case ACTION_REQUIRED, WAITING -> "pending";
        };
    }
}
