package io.tender.billing;

import java.time.Instant;
import java.util.Optional;

/**
 * Something a payment can be applied to: a customer's balance, an account's balance, or a bill. Each has a stable
 * {@code ob_} id, a currency (none until the merchant sets one), payment rules (none: it cannot be paid against) and
 * an outstanding amount that payments bring down.
 */
sealed interface Obligation permits BalanceObligation, Bill {

    String PREFIX = "ob_";

    String obligationId();

    String currency();

    PaymentRules paymentRules();

    /** What is still owed: a balance (below zero when in credit), or a bill's amount remaining. */
    long outstanding();

    /** The customer the obligation belongs to, directly or through an account. */
    String customerId();

    /** The account of an account balance, or of a bill raised against an account; else null. */
    String accountId();

    String noun();

    /** Why the obligation's state refuses any payment now (a voided bill); empty when it takes payments. */
    Optional<BillingRejection> stateRejection();

    /** Why a payment of {@code amount} would take the obligation past what it can hold, if it would. */
    Optional<BillingRejection> limitRejection(long amount);

    /**
     * The obligation after a payment of {@code amount} was applied at {@code at}. The caller has checked
     * {@link #stateRejection()} and {@link #limitRejection(long)} first ({@link ObligationPayments} does).
     */
    Obligation applied(long amount, Instant at);

    /**
     * The obligation after a refund took {@code amount} of an applied payment back at {@code at}: the inverse of
     * {@link #applied}. Nothing refuses it, as the money has gone back already; the caller has checked that the
     * payment's application covers {@code amount}.
     */
    Obligation reversed(long amount, Instant at);
}
