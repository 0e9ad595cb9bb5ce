package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.StoredResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Service;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The dashboard's cancel of a subscription and of a mandate (decisions §11): the very flows of the API's
 * {@code POST /collect/subscriptions/{id}/cancel} and {@code POST /collect/mandates/{id}/cancel}, under an
 * Idempotency-Key the form carries, bound to the API request it stands for: a form sent twice cancels once and
 * answers the first outcome again. Each answers as the API would ({@link StoredResponse}).
 */
@Service
public class SeriesActions {

    private final SeriesService service;
    private final IdempotentRequests idempotent;

    SeriesActions(SeriesService service, IdempotentRequests idempotent) {
        this.service = service;
        this.idempotent = idempotent;
    }

    public StoredResponse cancelSubscription(String merchantId, Mode mode, String id, String key,
                                             HttpServletRequest page) {
        return service.cancelSubscription(Caller.system(merchantId, mode), idempotent.keyed(key, "POST",
                "/collect/subscriptions/" + id + "/cancel", JsonNodeFactory.instance.objectNode(), page), id);
    }

    public StoredResponse cancelMandate(String merchantId, Mode mode, String id, String key, HttpServletRequest page) {
        return service.cancelMandate(Caller.system(merchantId, mode), idempotent.keyed(key, "POST",
                "/collect/mandates/" + id + "/cancel", JsonNodeFactory.instance.objectNode(), page), id);
    }
}
