package io.tender.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.http.ResponseEntity;

import java.util.List;
import java.util.function.Function;

/** One page of a list: newest first, with the cursor of the next page in the body and in {@code Next-Cursor}. */
@JsonPropertyOrder({"data", "has_more", "next_cursor"})
public record ListPage<T>(List<T> data, boolean hasMore, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {

    /** Builds a page from up to {@code limit + 1} rows; the extra row only says that there is more. */
    public static <R, T> ListPage<T> of(List<R> rows, int limit, Function<R, String> idOf, Function<R, T> view) {
        boolean more = rows.size() > limit;
        List<R> page = more ? rows.subList(0, limit) : rows;
        String next = more ? idOf.apply(page.getLast()) : null;
        return new ListPage<>(page.stream().map(view).toList(), more, next);
    }

    public ResponseEntity<ListPage<T>> toResponse() {
        var builder = ResponseEntity.ok();
        if (nextCursor != null) {
            builder.header("Next-Cursor", nextCursor);
        }
        return builder.body(this);
    }
}
