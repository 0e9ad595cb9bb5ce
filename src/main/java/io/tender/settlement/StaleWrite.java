package io.tender.settlement;

/** Another writer moved the row first; this writer's view of it is stale and must not be written. */
public final class StaleWrite extends RuntimeException {

    public StaleWrite(String table, String id) {
        super(table + " " + id + " was changed by another writer", null, false, false);
    }
}
