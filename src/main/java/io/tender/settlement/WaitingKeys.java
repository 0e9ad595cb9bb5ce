package io.tender.settlement;

import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.StoredResponse;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    /** A row that is final now, and the response each request waiting on it gets. */
    public record Final(String merchantId, String mode, String resourceId,
                        Function<IdempotencyKeys.Unfinished, StoredResponse> answer) {
    }

    /** As {@link #complete}, for several rows at once: one query finds the requests waiting on any of them. */
    public void completeAll(List<Final> rows) {
        if (rows.isEmpty()) {
            return;
        }
        Map<String, Final> byId = new HashMap<>();
        rows.forEach(r -> byId.put(r.resourceId(), r));
        for (var waiting : keys.unfinished(byId.keySet())) {
            Final row = byId.get(waiting.resourceId());
            if (row.merchantId().equals(waiting.merchantId()) && row.mode().equals(waiting.mode())) {
                keys.complete(row.merchantId(), row.mode(), waiting.unfinished().key(),
                        row.answer().apply(waiting.unfinished()));
            }
        }
    }
}
