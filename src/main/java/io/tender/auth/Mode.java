package io.tender.auth;

/** Test objects and live objects never see each other; test mode talks only to the sandbox providers. */
public enum Mode {
    TEST, LIVE;

    public String wire() {
        return name().toLowerCase();
    }

    public static Mode fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
