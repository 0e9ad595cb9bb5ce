package io.tender.redemption;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.Map;

/**
 * One call to the provider on behalf of a redemption. {@code PENDING} is internal: the call was started and its
 * answer is not recorded yet (a crash leaves it for the recovery job); the API shows only settled operations.
 * {@code providerKey} is the idempotency key the provider received, the same on every retry of this operation;
 * a reversal names the key of the operation it gives back in {@code reverses}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Operation(String id, Type type, Status status, long amount, Map<String, Object> providerReference,
                 OperationError error, Instant createdAt, String providerKey, String reverses) {

    enum Type {
        RESERVE, CONFIRM, REVERSE;

        String wire() {
            return name().toLowerCase();
        }
    }

    enum Status {
        PENDING, SUCCEEDED, FAILED;

        String wire() {
            return name().toLowerCase();
        }
    }

    Operation settled(Status status, long amount, Map<String, Object> reference, OperationError error) {
        return new Operation(id, type, status, amount, reference, error, createdAt, providerKey, reverses);
    }
}
