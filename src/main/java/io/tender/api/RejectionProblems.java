package io.tender.api;

/**
 * How one module's rejections answer a client: the problem code, status and detail of each. A module's web edge
 * declares one as a bean; {@link Rejections} finds it by the rejection's type.
 */
public interface RejectionProblems<R extends Rejection> {

    Class<R> type();

    ApiException problem(R rejection);
}
