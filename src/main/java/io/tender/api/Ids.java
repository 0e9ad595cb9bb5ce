package io.tender.api;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Identifiers are a prefix plus 24 lower-case hex digits: 48 bits of Unix milliseconds, so ids sort by creation time
 * (index locality, cursor order), then 48 bits from a secure random source. An id that alone opens a public page is
 * {@link #newPublicId}: 128 random bits and nothing else (decisions §1).
 */
public final class Ids {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private Ids() {
    }

    public static String newId(String prefix) {
        byte[] bytes = new byte[12];
        long millis = System.currentTimeMillis();
        for (int i = 5; i >= 0; i--) {
            bytes[i] = (byte) millis;
            millis >>>= 8;
        }
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        System.arraycopy(random, 0, bytes, 6, 6);
        return prefix + HEX.formatHex(bytes);
    }

    /**
     * An id that is the only key to a public page ({@code ckt_}, {@code pp_}): the prefix and 32 lower-case hex digits,
     * all 128 bits from a secure random source. Nothing in it tells when it was made or which ids were made beside it,
     * so such ids do not sort by creation time: lists of them order by {@code created_at}, then id.
     */
    public static String newPublicId(String prefix) {
        return prefix + randomHex(16);
    }

    /**
     * The ids of a kind made by {@link #newPublicId}: 32 hex digits, or 24 for those made before public ids were
     * random (they still open their pages and still page a list).
     */
    public static Pattern publicPattern(String prefix) {
        return Pattern.compile("^" + Pattern.quote(prefix) + "([a-f0-9]{32}|[a-f0-9]{24})$");
    }

    private static long lastMillis;
    private static long lastRandom;

    /**
     * Like {@link #newId}, but strictly increasing across the calls of this process, even within one millisecond
     * (the random part then grows by a random step instead of being drawn afresh). For ids whose order must be the
     * order they were made in, such as events appended one after the other in one transaction.
     */
    public static synchronized String newOrderedId(String prefix) {
        long millis = Math.max(System.currentTimeMillis(), lastMillis);
        byte[] draw = new byte[6];
        RANDOM.nextBytes(draw);
        long random = 0;
        for (byte b : draw) {
            random = (random << 8) | (b & 0xff);
        }
        if (millis == lastMillis) {
            random = lastRandom + 1 + (random & 0xffff);
            if (random >>> 48 != 0) {
                millis++;
                random &= 0xffffffffffffL >>> 1;
            }
        }
        lastMillis = millis;
        lastRandom = random;
        byte[] bytes = new byte[12];
        for (int i = 5; i >= 0; i--) {
            bytes[i] = (byte) millis;
            millis >>>= 8;
        }
        for (int i = 11; i >= 6; i--) {
            bytes[i] = (byte) random;
            random >>>= 8;
        }
        return prefix + HEX.formatHex(bytes);
    }

    public static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HEX.formatHex(random);
    }

    public static Pattern pattern(String prefix) {
        return Pattern.compile("^" + Pattern.quote(prefix) + "[a-f0-9]{24}$");
    }
}
