package io.tender.webhook;

import io.tender.api.Rejection;

/** Why a webhook endpoint request is refused, with what was compared; {@link WebhookProblems} words it. */
sealed interface WebhookRejection extends Rejection {

    /** The merchant has {@code max} endpoints in this mode already. */
    record TooManyEndpoints(int max) implements WebhookRejection {
    }

    record EndpointDisabled() implements WebhookRejection {
    }

    /** A redelivery to every subscribed endpoint, and none is enabled for {@code eventType}. */
    record NoSubscriber(String eventType) implements WebhookRejection {
    }
}
