package io.tender.api;

/**
 * A refusal a domain threw already worded as its problem (an {@link ApiException}), kept as a {@link Rejection} where
 * a caller takes refusals as values (an {@code io.tender.idempotency.Outcome}); {@link Rejections} answers it as the
 * problem it carries.
 */
public record Worded(ApiException problem) implements Rejection {
}
