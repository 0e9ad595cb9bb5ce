package io.tender.notify;

import java.util.regex.Pattern;

/**
 * A payment link's {@code ckt_} id is the only key to its checkout, so text bound for a log line shows at most its
 * last four characters.
 */
final class LinkSecrets {

    private static final Pattern CHECKOUT_ID = Pattern.compile("ckt_[A-Za-z0-9]*([A-Za-z0-9]{4})");
    private static final Pattern SHORT_CHECKOUT_ID = Pattern.compile("ckt_[A-Za-z0-9]{1,3}(?![A-Za-z0-9])");

    private LinkSecrets() {
    }

    /** {@code text} with every {@code ckt_…} id cut to {@code ckt_…} and its last 4 characters. */
    static String masked(String text) {
        if (text == null) {
            return null;
        }
        String longIds = CHECKOUT_ID.matcher(text).replaceAll("ckt_…$1");
        return SHORT_CHECKOUT_ID.matcher(longIds).replaceAll("ckt_…");
    }
}
