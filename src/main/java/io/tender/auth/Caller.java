package io.tender.auth;

import io.tender.api.Tenant;

/** Who is calling: one merchant in one mode, through one key. Every read and write is scoped by merchant and mode. */
public record Caller(String merchantId, Mode mode, KeyKind kind, String keyId) implements Tenant {

    @Override
    public String modeWire() {
        return mode.wire();
    }

    public boolean publicKey() {
        return !kind.secret();
    }

    /** The service itself acting for a merchant (the recovery job), with that merchant's scope and no key. */
    public static Caller system(String merchantId, Mode mode) {
        return new Caller(merchantId, mode, mode == Mode.TEST ? KeyKind.SK_TEST : KeyKind.SK_LIVE, "system");
    }
}
