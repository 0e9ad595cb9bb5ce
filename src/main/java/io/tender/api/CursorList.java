package io.tender.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A cursor list read with {@link ListQuery}: {@link ApiConventions} documents its {@code limit}, {@code cursor} (an id
 * with this prefix) and {@code created_at[gte]} / {@code created_at[lt]} parameters; the operation declares only its
 * own filters.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface CursorList {

    /** The id prefix of the listed objects, such as {@code "bill_"}: a cursor is such an id ({@link Ids#pattern}). */
    String idPrefix() default "";

    /** The cursor's pattern where it is not an id of {@link #idPrefix()}. */
    String cursorPattern() default "";
}
