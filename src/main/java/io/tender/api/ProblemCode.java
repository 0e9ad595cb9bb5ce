package io.tender.api;

import java.util.Arrays;
import java.util.Optional;

/** The closed set of error codes of the API (spec "Errors" and decisions §1), with their default status and title. */
public enum ProblemCode {
    BAD_REQUEST(400, "Bad request",
            "The request was malformed or failed validation. The `errors` list names each field and what is wrong with it."
                    + " Fix the request before retrying; nothing was changed."),
    UNAUTHORIZED(401, "Unauthorized",
            "The API key is missing, unknown or revoked. Send `Authorization: Bearer <secret key>`."),
    MISSING_AUTHORIZATION(401, "Missing authorization",
            "The Authorization header does not carry a bearer token. Send `Authorization: Bearer <secret key>`."),
    OPERATION_NOT_ALLOWED(403, "Operation not allowed",
            "The key may not call this operation (403, for example a public key on a secret-key endpoint), or the"
                    + " resource or provider cannot do it (422)."),
    RESOURCE_NOT_FOUND(404, "Resource not found",
            "No such resource or path for this key. Objects of other merchants, and of the other mode, are not visible."),
    PAYMENT_NOT_FOUND(404, "Payment not found", "No such payment for this key."),
    RESOURCE_ALREADY_EXISTS(409, "Resource already exists",
            "A resource with this unique value (for example `external_reference`) already exists."),
    CONFLICT(409, "Conflict",
            "The request conflicts with another one still in progress or with the resource's current version."
                    + " Retry after the time in `Retry-After`, or fetch the resource again."),
    INVALID_STATE_TRANSITION(409, "Invalid state transition",
            "The resource's current status does not allow this operation."),
    IDEMPOTENCY_CONFLICT(409, "Idempotency conflict",
            "This Idempotency-Key was used within the last 24 hours with a different method, path, API version or"
                    + " body. Use a new key for a new request."),
    TOO_MANY_REQUESTS(429, "Too many requests", "Slow down and retry after the time in `Retry-After`."),
    INTERNAL_SERVER_ERROR(500, "Internal server error",
            "Something went wrong on our side. Quote the `request_id` when you contact support."),
    PROVIDER_ERROR(502, "Provider error", "The voucher provider answered in a way we could not use."),
    SERVICE_UNAVAILABLE(503, "Service unavailable",
            "The service or the provider needed for this request is not available right now."),
    REQUEST_TIMEOUT(504, "Request timeout", "An upstream call did not complete in time.");

    private final int status;
    private final String title;
    private final String description;

    ProblemCode(int status, String title, String description) {
        this.status = status;
        this.title = title;
        this.description = description;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public String description() {
        return description;
    }

    /** The wire form, for example {@code idempotency_conflict}. */
    public String code() {
        return name().toLowerCase();
    }

    public static Optional<ProblemCode> fromCode(String code) {
        return Arrays.stream(values()).filter(c -> c.code().equals(code)).findFirst();
    }
}
