package io.tender.processor;

/**
 * A payment processor, as the payment service sees it. Every call carries an {@code operationKey}, unique per payment
 * and operation and the same on every retry of it, so the processor can deduplicate and a repeated call cannot move
 * money twice. Implementations never throw for processor behaviour: every answer, including garbage and silence,
 * becomes a {@link ProcessorOutcome}.
 */
public interface PaymentProcessor {

    /**
     * Authorizes {@code amount} on the method; with {@code capture} the authorization is captured at once (automatic
     * capture), so an approval means settled. {@code amount} 0 verifies the method.
     */
    ProcessorOutcome authorize(Authorize call);

    /** Captures {@code amount} of the approved authorization made under {@code authorizationKey}. */
    ProcessorOutcome capture(Capture call);

    /** Releases what remains of the authorization made under {@code authorizationKey} (or cancels it while it waits for the customer). */
    ProcessorOutcome release(Release call);

    /**
     * Gives back {@code amount} of what was captured under the authorization made with {@code authorizationKey}. The
     * processor may finish it later: {@link ProcessorOutcome.Accepted}, and the call's status tells how it ended.
     */
    ProcessorOutcome refund(Refund call);

    /**
     * What became of an earlier call, by its key: its answer, {@link ProcessorOutcome.ActionRequired} while the
     * customer has not finished, {@link ProcessorOutcome.Declined#notReceived} (and the key fenced) if it never
     * arrived, {@link ProcessorOutcome.Unknown} if the processor cannot say.
     */
    ProcessorOutcome status(String operationKey);

    /**
     * {@code returnUrl}: where the processor's 3-D Secure or bank page sends the customer back to (the checkout's
     * return route, unguessable through its {@code ckt_} id), or null for a payment without a checkout.
     * {@code storeMethod}: the customer agreed to later charges without them (a {@code first_in_series} session), so
     * the processor keeps the card and its approval carries the card's reusable {@link ProcessorOutcome.Approved#methodToken}.
     */
    record Authorize(String operationKey, long amount, String currency, PaymentMethodInput method, boolean capture,
                     String returnUrl, boolean storeMethod) {

        public Authorize(String operationKey, long amount, String currency, PaymentMethodInput method, boolean capture,
                         String returnUrl) {
            this(operationKey, amount, currency, method, capture, returnUrl, false);
        }

        /** A charge of a kept card ({@link PaymentMethodInput.Saved}), made without the customer. */
        public boolean offSession() {
            return method instanceof PaymentMethodInput.Saved;
        }
    }

    record Capture(String operationKey, String authorizationKey, long amount, String currency) {
    }

    record Release(String operationKey, String authorizationKey, long amount, String currency) {
    }

    record Refund(String operationKey, String authorizationKey, long amount, String currency) {
    }
}
