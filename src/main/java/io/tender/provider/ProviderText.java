package io.tender.provider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text that comes from a provider is stripped of the voucher secret the call carried before anything of ours
 * stores, logs or shows it (decisions §9): a provider that echoes the PIN in an error message, a reference or a
 * change voucher's texts would otherwise put it in clear in the database, the API, events and webhooks. Every
 * occurrence becomes the masked form the API shows for {@code source} ({@code ************9838}), also when the
 * provider wrote it with spaces, dots or dashes between its characters ({@code 4000 1234 5678 9838}).
 * <p>
 * A change voucher's own PIN is left as it is (responses that made it show it in full); its other fields are
 * stripped of the submitted secret and of that PIN, since later reads show the PIN only masked.
 */
public final class ProviderText {

    /** Secrets shorter than this are stripped only where they appear as sent, not when spread out by separators. */
    private static final int SPREAD_MIN = 8;

    private final List<Secret> secrets;

    /**
     * One secret to strip. Most texts do not contain it, so a cheap check (the text, lower-cased and without
     * separators, does not contain the secret) comes first, and the pattern is compiled only when a text may.
     */
    private static final class Secret {
        private final String secret;
        private final String lower;
        private final String compactLower;
        private final String masked;
        private Pattern pattern;

        Secret(String secret) {
            this.secret = secret;
            this.lower = asciiLower(secret);
            this.compactLower = asciiLower(secret.replaceAll("[^A-Za-z0-9]", ""));
            this.masked = Matcher.quoteReplacement(Masking.mask(secret));
        }

        String strip(String value) {
            String lowerValue = asciiLower(value);
            if (!lowerValue.contains(lower) && !compact(lowerValue).contains(compactLower)) {
                return value;
            }
            if (pattern == null) {
                pattern = patternOf(secret);
            }
            return pattern.matcher(value).replaceAll(masked);
        }

        /** Lower case for ASCII letters only, as the pattern's {@code CASE_INSENSITIVE} matches. */
        private static String asciiLower(String value) {
            char[] chars = value.toCharArray();
            for (int i = 0; i < chars.length; i++) {
                if (chars[i] >= 'A' && chars[i] <= 'Z') {
                    chars[i] = (char) (chars[i] + ('a' - 'A'));
                }
            }
            return new String(chars);
        }

        /** The value without the separators the pattern allows between a secret's characters. */
        private static String compact(String value) {
            StringBuilder out = new StringBuilder(value.length());
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c != ' ' && c != '.' && c != '-') {
                    out.append(c);
                }
            }
            return out.toString();
        }
    }

    private ProviderText(List<String> values) {
        List<Secret> secrets = new ArrayList<>();
        for (String value : values) {
            if (value != null && !value.isEmpty()) {
                secrets.add(new Secret(value));
            }
        }
        this.secrets = secrets;
    }

    /** The redaction of {@code source}'s secret. */
    static ProviderText of(VoucherSource source) {
        return new ProviderText(Arrays.asList(source == null ? null : source.secret()));
    }

    /** The outcome with every provider text in it stripped of the call's secret. */
    public static ProviderOutcome redacted(ProviderOutcome outcome, VoucherSource source) {
        ProviderText text = of(source);
        return switch (outcome) {
            case ProviderOutcome.Approved a -> {
                ChangeVoucher change = a.changeVoucher();
                // The change voucher's PIN is the customer's to have, but never inside the other texts.
                ProviderText all = change == null ? text
                        : new ProviderText(Arrays.asList(source == null ? null : source.secret(), change.pin()));
                yield new ProviderOutcome.Approved(a.amount(), a.currency(), all.strip(a.reference()),
                        change == null ? null : all.strip(change));
            }
            case ProviderOutcome.Declined d -> new ProviderOutcome.Declined(text.strip(d.errorCode()), text.strip(d.message()));
            case ProviderOutcome.Unknown u -> new ProviderOutcome.Unknown(text.strip(u.errorCode()), text.strip(u.message()));
        };
    }

    /** The lookup answer with its provider texts stripped of the looked-up secret. */
    public static VoucherProvider.Lookup redacted(VoucherProvider.Lookup lookup, VoucherSource source) {
        ProviderText text = of(source);
        return switch (lookup) {
            case VoucherProvider.Lookup.Balance b -> new VoucherProvider.Lookup.Balance(b.balance(), b.currency(),
                    text.strip(b.metadata()));
            case VoucherProvider.Lookup.Refused r -> new VoucherProvider.Lookup.Refused(text.strip(r.errorCode()),
                    text.strip(r.message()));
        };
    }

    /** {@code value} with every secret masked. */
    String strip(String value) {
        if (value == null) {
            return null;
        }
        String result = value;
        for (Secret secret : secrets) {
            result = secret.strip(result);
        }
        return result;
    }

    /** A JSON-like map (strings, numbers, nested maps and lists) with every string, key names included, stripped. */
    Map<String, Object> strip(Map<String, Object> map) {
        if (map == null) {
            return null;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        map.forEach((key, value) -> result.put(strip(key), stripAny(value)));
        return result;
    }

    @SuppressWarnings("unchecked")
    private Object stripAny(Object value) {
        return switch (value) {
            case String s -> strip(s);
            case Map<?, ?> m -> strip((Map<String, Object>) m);
            case List<?> l -> l.stream().map(this::stripAny).toList();
            case null, default -> value;
        };
    }

    private ChangeVoucher strip(ChangeVoucher change) {
        return switch (change) {
            case ChangeVoucher.WithAmount c -> new ChangeVoucher.WithAmount(c.pin(), strip(c.serialNumber()),
                    c.amount(), strip(c.expiresAt()), strip(c.status()));
            case ChangeVoucher.WithReference c -> new ChangeVoucher.WithReference(c.pin(), strip(c.serialNumber()),
                    strip(c.reference()), strip(c.expiresAt()), strip(c.barcode()), strip(c.productName()),
                    strip(c.productInstructions()), strip(c.productHelp()), strip(c.customerMessage()));
        };
    }

    /**
     * The secret as sent, in any case; and, when long enough, also with a space, dot or dash between any two of its
     * letters and digits (a 16-digit PIN printed in groups).
     */
    private static Pattern patternOf(String secret) {
        String compact = secret.replaceAll("[^A-Za-z0-9]", "");
        if (compact.length() < SPREAD_MIN) {
            return Pattern.compile(Pattern.quote(secret), Pattern.CASE_INSENSITIVE);
        }
        StringBuilder spread = new StringBuilder();
        for (int i = 0; i < compact.length(); i++) {
            spread.append(i == 0 ? "" : "[ .\\-]?").append(compact.charAt(i));
        }
        return Pattern.compile(Pattern.quote(secret) + "|" + spread, Pattern.CASE_INSENSITIVE);
    }
}
