package io.tender.redemption;

/** A provider's refusal: {@code <provider>.<code>}, {@code <provider>.transport_error} or a plain code such as BAD_REQUEST. */
public record OperationError(String errorCode, String message) {
}
