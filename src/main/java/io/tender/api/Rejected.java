package io.tender.api;

/**
 * Carries a {@link Rejection} out of code that cannot return it (a transaction to roll back, a facade another
 * module calls). {@link ApiExceptionHandler} and {@link io.tender.api.Rejections#answering} turn it into its problem.
 */
public final class Rejected extends RuntimeException {

    private final transient Rejection rejection;

    /** Its message is the record ({@code BillVoided[attempted=paid]}): for logs, never for a client. */
    public Rejected(Rejection rejection) {
        this(rejection, rejection.toString());
    }

    /** With the client's wording as its message: see {@link Rejections#rejected}. */
    Rejected(Rejection rejection, String message) {
        super(message, null, false, false);
        this.rejection = rejection;
    }

    public Rejection rejection() {
        return rejection;
    }
}
