package io.tender.webhook;

import io.tender.api.ApiException;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The webhook module's web edge: the problem each {@link WebhookRejection} answers. */
@Component
class WebhookProblems implements RejectionProblems<WebhookRejection> {

    @Override
    public ApiException problem(WebhookRejection rejection) {
        return switch (rejection) {
            case WebhookRejection.TooManyEndpoints r -> ApiException.notPossible("A merchant may have at most "
                    + r.max() + " webhook endpoints per mode; delete one it no longer needs first.");
            case WebhookRejection.EndpointDisabled r ->
                    ApiException.notPossible("The webhook endpoint is disabled; enable it first.");
            case WebhookRejection.NoSubscriber r -> ApiException.notPossible("No enabled webhook endpoint receives "
                    + r.eventType() + " events.");
        };
    }
}
