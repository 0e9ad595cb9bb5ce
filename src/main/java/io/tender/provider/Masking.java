package io.tender.provider;

/** How a voucher secret is shown anywhere but to the provider: all but its last four characters starred. */
public final class Masking {

    private Masking() {
    }

    public static String mask(String secret) {
        if (secret == null) {
            return null;
        }
        int visible = Math.min(4, secret.length() / 2);
        return "*".repeat(secret.length() - visible) + secret.substring(secret.length() - visible);
    }
}
