package io.tender.settlement;

/**
 * The keys the other side receives. A call's key is derived from its aggregate and kind ({@code <id>:<kind>}, then
 * {@code <id>:<kind>:2} for the second call of that kind), so it is known before the call is sent and the same on
 * every retry. A key that was asked after is fenced at the other side (a late arrival under it is refused); a call
 * that must still happen goes under the next fenced key ({@code …~2}, {@code …~3}).
 */
public final class OperationKeys {

    private OperationKeys() {
    }

    /** The key of the {@code (earlierOfKind + 1)}-th call of {@code kind} on {@code aggregateId}. */
    public static String of(String aggregateId, String kind, long earlierOfKind) {
        return aggregateId + ":" + kind + (earlierOfKind == 0 ? "" : ":" + (earlierOfKind + 1));
    }

    /** The fresh key for a call that never arrived under {@code key}; {@code callsOfKind} counts them on the aggregate. */
    public static String reissued(String key, long callsOfKind) {
        long tries = callsOfKind + key.chars().filter(c -> c == '~').count();
        return key + "~" + (tries + 1);
    }
}
