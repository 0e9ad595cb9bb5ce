package io.tender.api;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The query of a list endpoint: {@code limit} (1 to 100, default 20), {@code cursor} (the id after which to go on)
 * and the filters each endpoint allows. Unknown parameters are refused, like unknown body properties.
 */
public final class ListQuery {

    private static final Set<String> COMMON = Set.of("limit", "cursor", "created_at[gte]", "created_at[lt]");

    private final Map<String, String[]> parameters;
    private final List<FieldError> errors = new ArrayList<>();
    private final int limit;
    private final String cursor;
    private final Instant createdFrom;
    private final Instant createdBefore;

    /**
     * The page of a list a page of the dashboard shows: {@code limit} items after {@code cursor} (null, or one that
     * is not an id of the list: the first page), no filters of the API's own.
     */
    public static ListQuery page(Pattern idPattern, String cursor, int limit) {
        Map<String, String[]> parameters = new java.util.HashMap<>();
        parameters.put("limit", new String[]{String.valueOf(limit)});
        if (cursor != null && idPattern.matcher(cursor).matches()) {
            parameters.put("cursor", new String[]{cursor});
        }
        return new ListQuery(parameters, idPattern, Set.of());
    }

    public ListQuery(Map<String, String[]> parameters, Pattern idPattern, Set<String> filters) {
        this.parameters = parameters;
        for (String name : parameters.keySet()) {
            if (!COMMON.contains(name) && !filters.contains(name)) {
                errors.add(new FieldError(name, "is not a known query parameter"));
            } else if (parameters.get(name).length > 1) {
                errors.add(new FieldError(name, "must be given once"));
            }
        }
        String limitText = single("limit");
        int parsedLimit = 20;
        if (limitText != null) {
            try {
                parsedLimit = Integer.parseInt(limitText);
                if (parsedLimit < 1 || parsedLimit > 100) {
                    errors.add(new FieldError("limit", "must be 1 to 100"));
                }
            } catch (NumberFormatException e) {
                errors.add(new FieldError("limit", "must be an integer"));
            }
        }
        this.limit = parsedLimit;
        this.cursor = single("cursor");
        if (cursor != null && !idPattern.matcher(cursor).matches()) {
            errors.add(new FieldError("cursor", "is not a cursor of this list"));
        }
        this.createdFrom = instant("created_at[gte]");
        this.createdBefore = instant("created_at[lt]");
    }

    public String single(String name) {
        String[] values = parameters.get(name);
        return values == null || values.length == 0 ? null : values[0];
    }

    /** A filter that must be one of the given values. */
    public String oneOf(String name, Set<String> allowed) {
        String value = single(name);
        if (value != null && !allowed.contains(value)) {
            errors.add(new FieldError(name, "must be one of " + String.join(", ", allowed.stream().sorted().toList())));
            return null;
        }
        return value;
    }

    public ListQuery throwIfInvalid() {
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return this;
    }

    public int limit() {
        return limit;
    }

    public String cursor() {
        return cursor;
    }

    public Instant createdFrom() {
        return createdFrom;
    }

    public Instant createdBefore() {
        return createdBefore;
    }

    private Instant instant(String name) {
        String value = single(name);
        if (value == null) {
            return null;
        }
        try {
            return Timestamps.parse(value);
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(name, Timestamps.RULE));
            return null;
        }
    }
}
