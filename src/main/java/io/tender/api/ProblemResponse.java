package io.tender.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A problem+json answer of one operation, stated where it says more than the conventions do ({@link ApiConventions}
 * documents 400, 401, 403, 404, 409, 429 and 500 wherever they can happen, with a generic description): for example
 * {@code @ProblemResponse(status = 409, description = "`invalid_state_transition`: the bill is voided")}. On a
 * controller, it describes that status wherever the conventions document it on the controller's operations (such as
 * the 404 of every path naming a bill).
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Repeatable(ProblemResponse.List.class)
public @interface ProblemResponse {

    int status();

    String description();

    @Target({ElementType.METHOD, ElementType.TYPE})
    @Retention(RetentionPolicy.RUNTIME)
    @interface List {
        ProblemResponse[] value();
    }
}
