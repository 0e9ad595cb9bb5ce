package io.tender.dashboard;

import io.tender.api.Timestamps;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One-time sign-in links: a token of 256 bits from {@link SecureRandom}, given out once in the link and kept only as
 * its SHA-256, valid for {@link DashboardSettings#signInLinkValidity()} and used at most once. The rules of when a
 * link is made and what it may do are {@link OneTimeLinks}'.
 */
@Repository
record SignInLinks(JdbcClient jdbc, DashboardSettings settings) {

    /** 32 bytes in URL-safe Base64 without padding: 43 characters. */
    static final Pattern TOKEN = Pattern.compile("^[A-Za-z0-9_-]{43}$");
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Stores a new link for the user and answers its token, which the caller shows once. Only {@link OneTimeLinks}
     * calls it, under the rules of decisions §13 (a user's earlier links end first).
     */
    String insert(String userId) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant now = Timestamps.now();
        jdbc.sql("insert into dashboard_sign_in_links (token_hash, user_id, created_at, expires_at) values (?, ?, ?, ?)")
                .params(hash(token), userId, now.atOffset(ZoneOffset.UTC),
                        now.plus(settings.signInLinkValidity()).atOffset(ZoneOffset.UTC))
                .update();
        return token;
    }

    /** The user of a token that is still usable (not used, not expired), without using it. */
    Optional<String> usableBy(String token) {
        if (!TOKEN.matcher(token).matches()) {
            return Optional.empty();
        }
        return jdbc.sql("select user_id from dashboard_sign_in_links where token_hash = ? and used_at is null "
                        + "and expires_at > ?")
                .params(hash(token), Timestamps.now().atOffset(ZoneOffset.UTC)).query(String.class).optional();
    }

    /**
     * Uses the user's token: false when it was used already (also by a concurrent request), expired, or is not
     * theirs.
     */
    boolean use(String token, String userId) {
        if (!TOKEN.matcher(token).matches()) {
            return false;
        }
        var now = Timestamps.now().atOffset(ZoneOffset.UTC);
        return jdbc.sql("update dashboard_sign_in_links set used_at = ? where token_hash = ? and user_id = ? "
                        + "and used_at is null and expires_at > ?")
                .params(now, hash(token), userId, now).update() == 1;
    }

    /** Ends every link of the user not used yet. */
    void revokeUnused(String userId) {
        var now = Timestamps.now().atOffset(ZoneOffset.UTC);
        jdbc.sql("update dashboard_sign_in_links set expires_at = ? where user_id = ? and used_at is null "
                + "and expires_at > ?").params(now, userId, now).update();
    }

    /** Ends one link, if it still works. */
    void revoke(String token) {
        if (!TOKEN.matcher(token).matches()) {
            return;
        }
        var now = Timestamps.now().atOffset(ZoneOffset.UTC);
        jdbc.sql("update dashboard_sign_in_links set expires_at = ? where token_hash = ? and used_at is null "
                + "and expires_at > ?").params(now, hash(token), now).update();
    }

    private static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
