package io.tender.payment;

import io.tender.api.JsonInput;
import io.tender.auth.Caller;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a payment can be for: a bill or an account balance (decisions §4 and §6). Billing implements this; payments
 * only call it, so the dependency goes one way, billing → payment, and never back.
 */
public interface PaymentObligations {

    enum Kind {
        BILL, ACCOUNT;

        public String noun() {
            return name().toLowerCase();
        }
    }

    /** The bill or account a request names, by its id or external_reference. */
    record Named(Kind kind, String reference) {

        /** The body's {@code bill} or {@code account} (null: neither); both are refused under {@code bothField}. */
        public static Named read(JsonInput in, String bothField) {
            String bill = in.line("bill", false, 1, 255);
            String account = in.line("account", false, 1, 255);
            in.check(bill == null || account == null, bothField, "give at most one of bill or account");
            return bill != null ? new Named(Kind.BILL, bill)
                    : account != null ? new Named(Kind.ACCOUNT, account) : null;
        }
    }

    /** A session's obligation, resolved: its id, whose it is, and the amount and currency the session takes. */
    record Target(String obligationId, String customerId, long amount, String currency) {
    }

    /**
     * Resolves a bill or account (its id or external_reference) and checks that it accepts a payment of
     * {@code amount} (null: what is outstanding) in {@code currency} (null: its own) under its payment rules. Throws
     * billing's refusal (an {@link io.tender.api.Rejected}: not found, voided bill, rules), changing nothing.
     */
    Target check(Caller caller, Kind kind, String reference, Long amount, String currency);

    /** Whether the caller has a customer with this {@code bcus_} id (a series' mandate is the customer's). */
    boolean customerExists(Caller caller, String customerId);

    /**
     * The ids of the caller's customers whose email is {@code email}, compared without regard to case (the
     * dashboard's search by customer email); empty when none is.
     */
    List<String> customerIdsByEmail(Caller caller, String email);

    /** The email of each of {@code customerIds} that is a customer of the caller, by id (others are left out). */
    Map<String, String> customerEmails(Caller caller, Collection<String> customerIds);

    /** The check again, when an attempt starts: the obligation may have been paid or changed since. */
    void recheck(Caller caller, String obligationId, long amount, String currency);

    /**
     * Applies a succeeded payment to its obligation in the caller's transaction (the one recording the success),
     * at most once, writing {@code obligation.amount_applied}. The money has moved already, so the payment rules are
     * not asked again; returns why it could not be applied (a bill voided meanwhile), for the operator.
     */
    Optional<String> applyReceived(Caller caller, String paymentId);

    /**
     * Reverses {@code amount} of a payment's application to its obligation, in the caller's transaction (the one
     * recording the refund's success), at most once per refund, writing {@code obligation.amount_reversed}. The money
     * has gone back already, so nothing refuses it; returns why it could not be reversed (the payment was never
     * applied), for the operator.
     * <p>
     * A payment made for no obligation has nothing to reverse (empty), so every succeeded refund may call this. A
     * refund reversed before is answered empty and moves nothing again. The refunds of one payment add up to at most
     * its application: one that would go beyond it changes nothing and returns the reason. A voided bill is reversed
     * too ({@code amount_paid} down, still voided): the money left, whatever the bill's state.
     */
    Optional<String> reverseRefunded(Caller caller, String paymentId, String refundId, long amount);
}
