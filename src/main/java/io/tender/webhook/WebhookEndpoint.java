package io.tender.webhook;

import io.tender.auth.Mode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A merchant's webhook endpoint: where events go, which types it wants, and the secrets that sign them. After a
 * rotation the previous secret keeps signing alongside the new one for {@link #ROTATION_OVERLAP}, so receivers can
 * switch without losing an event.
 */
final class WebhookEndpoint {

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

    private final String id;
    private final String merchantId;
    private final Mode mode;
    private String url;
    private String description;
    private List<String> enabledEvents;
    private Status status;
    private String disabledReason;
    private String secret;
    private String previousSecret;
    private Instant previousSecretExpiresAt;
    private final Instant createdAt;
    private Instant updatedAt;

    WebhookEndpoint(String id, String merchantId, Mode mode, String url, String description,
                    List<String> enabledEvents, Status status, String disabledReason, String secret,
                    String previousSecret, Instant previousSecretExpiresAt, Instant createdAt, Instant updatedAt) {
        this.id = id;
        this.merchantId = merchantId;
        this.mode = mode;
        this.url = url;
        this.description = description;
        this.enabledEvents = List.copyOf(enabledEvents);
        this.status = status;
        this.disabledReason = disabledReason;
        this.secret = secret;
        this.previousSecret = previousSecret;
        this.previousSecretExpiresAt = previousSecretExpiresAt;
        this.createdAt = createdAt;
        this.updatedAt = updatedAt;
    }

    static WebhookEndpoint create(String id, String merchantId, Mode mode, EndpointRequest request, Instant now) {
        return new WebhookEndpoint(id, merchantId, mode, request.url(), request.description(),
                request.enabledEvents(), Status.ENABLED, null, WebhookSigner.newSecret(), null, null, now, now);
    }

    /** Applies a PATCH: only the fields it names change. */
    void change(EndpointRequest changes, Instant now) {
        if (changes.url() != null) {
            url = changes.url();
        }
        if (changes.description() != null) {
            description = changes.description().isEmpty() ? null : changes.description();
        }
        if (changes.enabledEvents() != null) {
            enabledEvents = List.copyOf(changes.enabledEvents());
        }
        if (changes.status() != null && changes.status() != status) {
            status = changes.status();
            disabledReason = status == Status.DISABLED ? DISABLED_BY_MERCHANT : null;
        }
        updatedAt = now;
    }

    void rotateSecret(Instant now) {
        previousSecret = secret;
        previousSecretExpiresAt = now.plus(ROTATION_OVERLAP);
        secret = WebhookSigner.newSecret();
        updatedAt = now;
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

    String id() {
        return id;
    }

    String merchantId() {
        return merchantId;
    }

    Mode mode() {
        return mode;
    }

    String url() {
        return url;
    }

    String description() {
        return description;
    }

    List<String> enabledEvents() {
        return enabledEvents;
    }

    Status status() {
        return status;
    }

    String disabledReason() {
        return disabledReason;
    }

    String secret() {
        return secret;
    }

    String previousSecret() {
        return previousSecret;
    }

    Instant previousSecretExpiresAt() {
        return previousSecretExpiresAt;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant updatedAt() {
        return updatedAt;
    }
}
