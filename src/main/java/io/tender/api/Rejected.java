package io.tender.api;

/**
 * Carries a {@link Rejection} out of code that cannot return it (a transaction to roll back, a facade another
 * module calls). {@link ApiExceptionHandler} and {@link io.tender.api.Rejections#answering} turn it into its problem.
 */
public final class Rejected extends RuntimeException {

    private final transient Rejection rejection;

    public Rejected(Rejection rejection) {
        super(rejection.toString(), null, false, false);
        this.rejection = rejection;
    }

    public Rejection rejection() {
        return rejection;
    }
}
