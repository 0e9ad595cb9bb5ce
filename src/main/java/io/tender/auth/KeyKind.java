package io.tender.auth;

import java.util.Optional;

/** The four kinds of API key (spec "Authentication"), told apart by prefix. */
public enum KeyKind {
    SK_TEST("sk_test_", Mode.TEST, true),
    PK_TEST("pk_test_", Mode.TEST, false),
    SK_LIVE("sk_live_", Mode.LIVE, true),
    PK_LIVE("pk_live_", Mode.LIVE, false);

    private final String prefix;
    private final Mode mode;
    private final boolean secret;

    KeyKind(String prefix, Mode mode, boolean secret) {
        this.prefix = prefix;
        this.mode = mode;
        this.secret = secret;
    }

    /** Test keys start {@code sk_test_}/{@code pk_test_}; any other {@code sk_}/{@code pk_} key is live. */
    public static Optional<KeyKind> of(String key) {
        if (key.startsWith("sk_test_")) {
            return Optional.of(SK_TEST);
        }
        if (key.startsWith("pk_test_")) {
            return Optional.of(PK_TEST);
        }
        if (key.startsWith("sk_")) {
            return Optional.of(SK_LIVE);
        }
        if (key.startsWith("pk_")) {
            return Optional.of(PK_LIVE);
        }
        return Optional.empty();
    }

    /** The prefix the key starts with, as the spec names it: {@code sk_test_}, {@code pk_test_}, {@code sk_}, {@code pk_}. */
    public String specPrefix() {
        return switch (this) {
            case SK_TEST, PK_TEST -> prefix;
            case SK_LIVE -> "sk_";
            case PK_LIVE -> "pk_";
        };
    }

    /** The prefix of keys this service generates. */
    public String prefix() {
        return prefix;
    }

    public Mode mode() {
        return mode;
    }

    public boolean secret() {
        return secret;
    }

    public String wire() {
        return name().toLowerCase();
    }

    public static KeyKind fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
