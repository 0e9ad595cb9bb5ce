package io.tender.payment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tender.settlement.CallStatus;

import java.time.Instant;
import java.util.Map;

/**
 * One processor call on behalf of a payment. {@code PENDING}: recorded before it is sent, while its writer holds the
 * payment's lease (a crash leaves it for the recovery job, which asks after it first); {@code UNKNOWN}: it was sent
 * and neither its answer nor a status query said what became of it, so money may have moved (the recovery job asks
 * after exactly these, never sending them again); {@code action} is set while an authorization waits for the customer
 * (3-D Secure, a bank's page, an app). {@code processorKey} is the key the processor received, the same on every retry;
 * captures and voids name the authorization's key in {@code authorizationKey}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record PaymentOperation(String id, Type type, CallStatus status, long amount, String processorKey,
                        String authorizationKey, String action, String redirectUrl, Map<String, Object> reference,
                        PaymentError error, Instant createdAt) {

    enum Type {
        AUTHORIZE, CAPTURE, VOID;

        String wire() {
            return name().toLowerCase();
        }
    }

    /** A call recorded before it is sent: pending, not yet answered. */
    static PaymentOperation pending(String id, Type type, long amount, String processorKey, String authorizationKey,
                                    Instant now) {
        return new PaymentOperation(id, type, CallStatus.PENDING, amount, processorKey, authorizationKey, null, null,
                null, null, now);
    }

    PaymentOperation settled(CallStatus status, long settledAmount, Map<String, Object> settledReference,
                             PaymentError e) {
        return new PaymentOperation(id, type, status, settledAmount, processorKey, authorizationKey, null, null,
                settledReference, e, createdAt);
    }

    /** The processor's definite answer that the customer has to act: pending again, if it was unknown. */
    PaymentOperation waitingFor(String waitingAction, String url) {
        return new PaymentOperation(id, type, CallStatus.PENDING, amount, processorKey, authorizationKey,
                waitingAction, url, reference, error, createdAt);
    }

    PaymentOperation unknown() {
        return new PaymentOperation(id, type, CallStatus.UNKNOWN, amount, processorKey, authorizationKey, action,
                redirectUrl, reference, error, createdAt);
    }

    PaymentOperation rekeyed(String key) {
        return new PaymentOperation(id, type, status, amount, key, authorizationKey, action, redirectUrl, reference,
                error, createdAt);
    }
}
