package io.tender.api;

/**
 * How one module's rejections answer a client: the problem code, status and detail of each. A module's web edge
 * declares one as a bean; {@link Rejections} picks it for the rejections of type {@code R}.
 */
public interface RejectionProblems<R extends Rejection> {

    ApiException problem(R rejection);
}
