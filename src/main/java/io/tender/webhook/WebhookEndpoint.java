package io.tender.webhook;

import io.tender.apiversion.ApiVersion;
import io.tender.auth.Mode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A merchant's webhook endpoint: where events go, which types it wants, the API version their payloads are rendered
 * in, and the secrets that sign them. After a rotation the previous secret keeps signing alongside the new one for
 * {@link #ROTATION_OVERLAP}, so receivers can switch without losing an event. A value: a change or a rotation gives a
 * new endpoint to store.
 */
record WebhookEndpoint(String id, String merchantId, Mode mode, String url, String description,
                       List<String> enabledEvents, Status status, String disabledReason, ApiVersion apiVersion,
                       String secret, String previousSecret, Instant previousSecretExpiresAt, Instant createdAt,
                       Instant updatedAt) {

    static final Duration ROTATION_OVERLAP = Duration.ofHours(24);

    enum Status {
        ENABLED, DISABLED;

        String wire() {
            return name().toLowerCase();
        }

        static Status fromWire(String value) {
            return valueOf(value.toUpperCase());
        }
    }

    /** Why an endpoint is disabled: the merchant said so, or the receiver answered 410 Gone. */
    static final String DISABLED_BY_MERCHANT = "disabled_by_merchant";
    static final String ENDPOINT_GONE = "endpoint_gone";

    WebhookEndpoint {
        enabledEvents = List.copyOf(enabledEvents);
    }

    /** A new endpoint; its events are rendered in {@code apiVersion}, the version of the request that created it. */
    static WebhookEndpoint create(String id, String merchantId, Mode mode, EndpointRequest request,
                                  ApiVersion apiVersion, Instant now) {
        return new WebhookEndpoint(id, merchantId, mode, request.url(), request.description(),
                request.enabledEvents(), Status.ENABLED, null, apiVersion, WebhookSigner.newSecret(), null, null, now,
                now);
    }

    /** The endpoint after a PATCH: only the fields it names change; a new status says who disabled it. */
    WebhookEndpoint changed(EndpointRequest changes, Instant now) {
        boolean statusChanges = changes.status() != null && changes.status() != status;
        Status newStatus = statusChanges ? changes.status() : status;
        return new WebhookEndpoint(id, merchantId, mode, changes.url() != null ? changes.url() : url,
                changes.description() == null ? description
                        : changes.description().isEmpty() ? null : changes.description(),
                changes.enabledEvents() != null ? changes.enabledEvents() : enabledEvents, newStatus,
                !statusChanges ? disabledReason : newStatus == Status.DISABLED ? DISABLED_BY_MERCHANT : null,
                changes.apiVersion() != null ? changes.apiVersion() : apiVersion, secret, previousSecret,
                previousSecretExpiresAt, createdAt, now);
    }

    /** The endpoint with a new secret; the current one becomes the previous one for {@link #ROTATION_OVERLAP}. */
    WebhookEndpoint rotated(Instant now) {
        return new WebhookEndpoint(id, merchantId, mode, url, description, enabledEvents, status, disabledReason,
                apiVersion, WebhookSigner.newSecret(), secret, now.plus(ROTATION_OVERLAP), createdAt, now);
    }

    /** The secrets a delivery at {@code now} is signed with: the current one, and the previous one while valid. */
    List<String> signingSecrets(Instant now) {
        List<String> secrets = new ArrayList<>();
        secrets.add(secret);
        if (previousSecret != null && previousSecretExpiresAt != null && now.isBefore(previousSecretExpiresAt)) {
            secrets.add(previousSecret);
        }
        return secrets;
    }

    void requireEnabled() {
        if (status != Status.ENABLED) {
            throw new WebhookRejection.EndpointDisabled().thrown();
        }
    }

    /** Never the secrets: an endpoint may end up in a log. */
    @Override
    public String toString() {
        return "WebhookEndpoint[" + id + "]";
    }
}
