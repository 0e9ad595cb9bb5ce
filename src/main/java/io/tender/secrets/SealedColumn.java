package io.tender.secrets;

import java.util.List;
import java.util.function.Function;

/**
 * A bytea column holding {@link SecretBox} values, for {@link Resealer}: the table, the column, the primary key's
 * (text) columns, and the context the owner seals with, made from the primary key's values in that order.
 * Names are the owner's constants, never input.
 */
public record SealedColumn(String table, String column, List<String> keyColumns, Function<List<String>, String> context) {

    public SealedColumn {
        keyColumns = List.copyOf(keyColumns);
    }

    /** A table whose primary key is one text column. */
    public static SealedColumn of(String table, String column, String keyColumn, Function<String, String> context) {
        return new SealedColumn(table, column, List.of(keyColumn), keys -> context.apply(keys.getFirst()));
    }
}
