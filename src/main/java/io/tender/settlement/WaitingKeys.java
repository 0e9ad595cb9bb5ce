package io.tender.settlement;

import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.StoredResponse;
import org.springframework.stereotype.Component;

import java.util.function.Function;

/**
 * Completes the Idempotency-Keys of requests that never got their answer (a crash, a 504), once the row they were
 * about is final: their retries then replay the final state instead of running again. Runs inside the transaction
 * that writes the final state, so the state and the answers commit together.
 */
@Component
public class WaitingKeys {

    private final IdempotencyKeys keys;

    WaitingKeys(IdempotencyKeys keys) {
        this.keys = keys;
    }

    /** {@code answer} gives each waiting request (by method and path) its final response. */
    public void complete(String merchantId, String mode, String resourceId,
                         Function<IdempotencyKeys.Unfinished, StoredResponse> answer) {
        for (var waiting : keys.unfinished(merchantId, mode, resourceId)) {
            keys.complete(merchantId, mode, waiting.key(), answer.apply(waiting));
        }
    }
}
