package io.tender.billing;

/**
 * One field of a PATCH that may also remove a value: a {@code Change} with a null value removes it, while a null
 * {@code Change} leaves the field as it is.
 */
record Change<T>(T value) {

    static <T> T apply(Change<T> change, T current) {
        return change == null ? current : change.value();
    }
}
