package io.tender.processor;

import java.util.Map;

/**
 * What a processor call came to. {@link Unknown} is a real state, not an error: the call may have moved money (a
 * timeout after sending, a reset, a 5xx), so it is resolved by asking for the call's status, never by sending it
 * again. {@link ActionRequired}: the customer must do something first (3-D Secure, a bank's login, an approval in an
 * app); the call's status then tells how it ended.
 */
public sealed interface ProcessorOutcome {

    /**
     * The processor did it. {@code reference} is what it returned (never card data); {@code funding} CREDIT|DEBIT for
     * cards. {@code methodToken}: the card's reusable token, when the authorization asked to keep the card
     * ({@link PaymentProcessor.Authorize#storeMethod}); null otherwise. It lets anyone holding the processor's
     * credentials charge the card: it is sealed at rest and never shown, logged or put in {@code reference}.
     */
    record Approved(long amount, String currency, String funding, Map<String, Object> reference, String methodToken)
            implements ProcessorOutcome {

        public Approved(long amount, String currency, String funding, Map<String, Object> reference) {
            this(amount, currency, funding, reference, null);
        }

        @Override
        public String toString() {
            return "Approved[amount=" + amount + ", currency=" + currency + ", funding=" + funding + ", reference="
                    + reference + (methodToken == null ? "" : ", methodToken=****") + "]";
        }
    }

    /**
     * The processor refused; nothing moved. {@code errorCode} such as {@code card_declined}, with a
     * {@code declineCode} such as {@code insufficient_funds}.
     */
    record Declined(String errorCode, String declineCode, String message) implements ProcessorOutcome {

        /** The answer to a status query for a call the processor never received (its key is fenced from then on). */
        public static final String NOT_RECEIVED = "not_received";

        public static Declined notReceived(String message) {
            return new Declined("processing_error", NOT_RECEIVED, message);
        }

        public boolean neverReceived() {
            return NOT_RECEIVED.equals(declineCode);
        }
    }

    /**
     * The processor took the call and finishes it by itself later (a refund on its way back to the customer's bank):
     * nothing is decided yet, and the call's status tells how it ended. Only a refund is answered so.
     */
    record Accepted(Map<String, Object> reference) implements ProcessorOutcome {
    }

    /** We cannot tell whether the processor did it. */
    record Unknown(String message) implements ProcessorOutcome {
    }

    /**
     * The customer has to act: {@code action} is {@code three_d_secure}, {@code bank_login} or {@code app_approval};
     * {@code redirectUrl} is where to send them (null when the page is Tender's own sandbox page, or an app).
     */
    record ActionRequired(String action, String redirectUrl) implements ProcessorOutcome {
    }
}
