package io.tender.dashboard;

import java.util.Set;

/**
 * A status as the dashboard shows it (decisions §11: never by colour alone): its words ({@code past_due} reads
 * "past due" on the Collect pages, a bill's {@code paid} "Paid") and its tone, which picks the badge's colour and its
 * icon (a tick, a cross, a clock or a dash: {@code dashboard/status :: badge}, the badge of every status).
 */
public record StatusWords(String wire, String words, String tone) {

    private static final Set<String> GOOD = Set.of("succeeded", "paid", "completed", "active", "reserved",
            "payment_method_verified");
    private static final Set<String> BAD = Set.of("failed", "unpaid", "past_due");
    private static final Set<String> WAITING = Set.of("pending", "scheduled", "retrying", "charging", "not_started");

    static StatusWords of(String wire) {
        if (wire == null) {
            return new StatusWords("", "–", "ended");
        }
        String tone = GOOD.contains(wire) ? "succeeded" : BAD.contains(wire) ? "failed"
                : WAITING.contains(wire) ? "pending" : "ended";
        return new StatusWords(wire, wire.replace('_', ' '), tone);
    }
}
