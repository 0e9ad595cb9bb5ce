package io.tender.api;

/**
 * A refusal a domain returns as a value: which rule refused, with the values it compared (amounts, states). The
 * domain never words it as HTTP; only the web edge turns it into a problem, through the {@link RejectionProblems}
 * of the module that declares it.
 */
public interface Rejection {

    /** This rejection as an exception, for code that cannot return it (see {@link Rejected}). */
    default Rejected thrown() {
        return new Rejected(this);
    }
}
