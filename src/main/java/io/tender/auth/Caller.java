package io.tender.auth;

/** Who is calling: one merchant in one mode, through one key. Every read and write is scoped by merchant and mode. */
public record Caller(String merchantId, Mode mode, KeyKind kind, String keyId) {

    public boolean publicKey() {
        return !kind.secret();
    }
}
