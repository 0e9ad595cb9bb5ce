package io.tender.api;

/**
 * The object a request names does not exist for its caller: an unknown id or reference, another merchant's, or the
 * other mode's. Every module refuses it alike; {@link Rejections} answers 404 {@code resource_not_found} naming
 * {@code noun} ("payment page").
 */
public record NotFound(String noun) implements Rejection {
}
