package io.tender.outbox;

import io.tender.api.ApiException;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The event log's web edge: the problem each {@link OutboxRejection} answers. */
@Component
class OutboxProblems implements RejectionProblems<OutboxRejection> {

    @Override
    public ApiException problem(OutboxRejection rejection) {
        return switch (rejection) {
            case OutboxRejection.EventNotFound r -> ApiException.notFound("event");
        };
    }
}
