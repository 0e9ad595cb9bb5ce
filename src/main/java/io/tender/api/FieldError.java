package io.tender.api;

/** One reason a request was rejected: the JSON path of the field (for example {@code source.pin}) and what is wrong. */
public record FieldError(String field, String message) {
}
