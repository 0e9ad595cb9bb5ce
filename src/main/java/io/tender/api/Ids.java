package io.tender.api;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Identifiers are a prefix plus 24 lower-case hex digits: 48 bits of Unix milliseconds, so ids sort by creation time
 * (index locality, cursor order), then 48 bits from a secure random source.
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

    public static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HEX.formatHex(random);
    }

    public static Pattern pattern(String prefix) {
        return Pattern.compile("^" + Pattern.quote(prefix) + "[a-f0-9]{24}$");
    }
}
