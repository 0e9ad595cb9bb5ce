package io.tender.redemption;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tender.settlement.CallStatus;

import java.time.Instant;
import java.util.Map;

/**
 * One call to the provider on behalf of a redemption. {@code PENDING} and {@code UNKNOWN} are internal (the API shows
 * only settled operations): {@code PENDING}, recorded before it is sent, while its writer holds the lease (a crash
 * leaves it for the recovery job, which asks after it first); {@code UNKNOWN}, it was sent and neither its answer
 * nor a status query said what became of it, so value may have moved (the recovery job asks after exactly these).
 * {@code providerKey} is the idempotency key the provider received, the same on every retry of this operation;
 * a reversal names the key of the operation it gives back in {@code reverses}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Operation(String id, Type type, CallStatus status, long amount, Map<String, Object> providerReference,
                 OperationError error, Instant createdAt, String providerKey, String reverses) {

    enum Type {
        RESERVE, CONFIRM, REVERSE;

        String wire() {
            return name().toLowerCase();
        }
    }

    Operation settled(CallStatus status, long amount, Map<String, Object> reference, OperationError error) {
        return new Operation(id, type, status, amount, reference, error, createdAt, providerKey, reverses);
    }
}
