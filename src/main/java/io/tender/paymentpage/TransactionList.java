package io.tender.paymentpage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.tender.api.ListQuery;
import org.springframework.http.ResponseEntity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * One page of a payment page's transactions, newest first, with a cursor each way (decisions §7: {@code Next-Cursor}
 * and {@code Prev-Cursor}, in the body and in headers). {@code next_cursor} is the oldest id shown, as in every list;
 * {@code prev_cursor} is {@code prev_} + the newest id shown, and gives the {@code limit} transactions just newer
 * than it. Both go back as {@code cursor}. At the newest end {@code prev_cursor} is null.
 */
@JsonPropertyOrder({"data", "has_more", "next_cursor", "prev_cursor"})
@Schema(name = "PaymentPageTransactionList")
record TransactionList(@ArraySchema(schema = @Schema(implementation = PageTransactionView.class)) List<PageTransactionView> data,
                       @Schema(description = "Whether there are older transactions (next_cursor).") boolean hasMore,
                       @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true) String nextCursor,
                       @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true) String prevCursor) {

    static final String PREV = "prev_";
    static final Pattern CURSOR = Pattern.compile("^(" + PREV + ")?pt_[a-f0-9]{24}$");

    /**
     * Reads the page the query's cursor asks for. {@code rows(after, before)} answers up to {@code limit + 1} rows:
     * older than {@code after}, newest first, or newer than {@code before}, oldest first.
     */
    static TransactionList read(ListQuery query, BiFunction<String, String, List<PageTransaction>> rows) {
        int limit = query.limit();
        String cursor = query.cursor();
        if (cursor != null && cursor.startsWith(PREV)) {
            List<PageTransaction> found = rows.apply(null, cursor.substring(PREV.length()));
            if (!found.isEmpty()) {
                boolean newer = found.size() > limit;
                List<PageTransaction> shown = new ArrayList<>(newer ? found.subList(0, limit) : found);
                Collections.reverse(shown);
                return of(shown, true, newer);
            }
            // Nothing newer than the cursor: the newest page.
            cursor = null;
        }
        List<PageTransaction> found = rows.apply(cursor, null);
        boolean older = found.size() > limit;
        return of(older ? found.subList(0, limit) : found, older, cursor != null);
    }

    private static TransactionList of(List<PageTransaction> shown, boolean older, boolean newer) {
        String next = older && !shown.isEmpty() ? shown.getLast().id() : null;
        String prev = newer && !shown.isEmpty() ? PREV + shown.getFirst().id() : null;
        return new TransactionList(shown.stream().map(PageTransactionView::of).toList(), next != null, next, prev);
    }

    ResponseEntity<TransactionList> toResponse() {
        var builder = ResponseEntity.ok();
        if (nextCursor != null) {
            builder.header("Next-Cursor", nextCursor);
        }
        if (prevCursor != null) {
            builder.header("Prev-Cursor", prevCursor);
        }
        return builder.body(this);
    }
}
