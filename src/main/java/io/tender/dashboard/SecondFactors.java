package io.tender.dashboard;

import com.eatthepath.otp.TimeBasedOneTimePasswordGenerator;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import io.tender.secrets.SealedColumn;
import io.tender.secrets.SealedColumns;
import io.tender.secrets.SecretBox;
import org.apache.commons.codec.binary.Base32;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

import javax.crypto.spec.SecretKeySpec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The dashboard's optional second factor (decisions §11): a TOTP secret per user (RFC 6238: HMAC-SHA1, 6 digits,
 * 30-second steps, what every authenticator app reads from an {@code otpauth://} link), sealed under the master key;
 * and ten single-use recovery codes kept as keyed hashes.
 * <p>
 * A code is accepted for the step before, at, and after the server's clock (a phone a little off still works), and
 * once only: the step it was accepted at is kept, and a code of that step or an earlier one is refused after, so a
 * code seen over a shoulder cannot be replayed in the same half minute.
 */
@Repository
class SecondFactors implements SealedColumns {

    /** Recovery codes made when the second factor is turned on. */
    static final int RECOVERY_CODES = 10;
    private static final int SECRET_BYTES = 20;
    private static final int RECOVERY_CODE_BYTES = 10;
    private static final String ISSUER = "Tender";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** How a second factor was given. */
    enum Factor { CODE, RECOVERY_CODE }

    private final JdbcClient jdbc;
    private final SecretBox box;
    private final KeyedHash recoveryHash;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final TimeBasedOneTimePasswordGenerator totp = new TimeBasedOneTimePasswordGenerator();

    SecondFactors(JdbcClient jdbc, SecretBox box, HashKeys hashKeys, TransactionTemplate tx, Clock clock) {
        this.jdbc = jdbc;
        this.box = box;
        this.recoveryHash = hashKeys.hash("dashboard-recovery-code/v1");
        this.tx = tx;
        this.clock = clock;
    }

    boolean enabled(String userId) {
        return jdbc.sql("select totp_enabled_at is not null from dashboard_users where id = ?").param(userId)
                .query(Boolean.class).optional().orElse(false);
    }

    int recoveryCodesLeft(String userId) {
        return jdbc.sql("select count(*) from dashboard_recovery_codes where user_id = ? and used_at is null")
                .param(userId).query(Integer.class).single();
    }

    /** A new secret, in Base32 without padding as authenticator apps take it; kept nowhere until confirmed. */
    static String newSecret() {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return new Base32().encodeAsString(secret).replace("=", "");
    }

    /** The {@code otpauth://} link an authenticator app reads from the QR code. */
    static String otpauthUri(String secret, String email, String merchantName) {
        String label = ISSUER + " (" + merchantName + "):" + email;
        return "otpauth://totp/" + encode(label) + "?secret=" + secret + "&issuer=" + encode(ISSUER)
                + "&algorithm=SHA1&digits=6&period=30";
    }

    /** The secret in groups of four, for typing it by hand. */
    static String grouped(String secret) {
        return String.join(" ", secret.split("(?<=\\G.{4})"));
    }

    /**
     * Turns the second factor on with {@code secret} if {@code code} is one of its current codes: answers the
     * recovery codes to show once, or empty when the code is wrong (or the factor is on already).
     */
    Optional<List<String>> enable(String userId, String secret, String code) {
        OptionalLong step = matchingStep(secret, code);
        if (step.isEmpty()) {
            return Optional.empty();
        }
        return tx.execute(status -> {
            int updated = jdbc.sql("update dashboard_users set totp_secret_sealed = ?, totp_enabled_at = ?, "
                            + "totp_last_step = ? where id = ? and totp_enabled_at is null")
                    .params(box.seal(secret.getBytes(StandardCharsets.US_ASCII), context(userId)),
                            clock.instant().atOffset(ZoneOffset.UTC), step.getAsLong(), userId)
                    .update();
            if (updated == 0) {
                return Optional.empty();
            }
            return Optional.of(newRecoveryCodes(userId));
        });
    }

    /** Turns the second factor off: the secret and every recovery code are deleted. */
    void disable(String userId) {
        tx.executeWithoutResult(status -> {
            jdbc.sql("delete from dashboard_recovery_codes where user_id = ?").param(userId).update();
            jdbc.sql("update dashboard_users set totp_secret_sealed = null, totp_enabled_at = null, "
                    + "totp_last_step = null where id = ?").param(userId).update();
        });
    }

    /**
     * Whether {@code given} is a current code of the user's secret not used before, or one of their unused recovery
     * codes; either is used up by this call.
     */
    Optional<Factor> verify(String userId, String given) {
        String typed = given == null ? "" : given.replaceAll("[\\s-]", "").toLowerCase(Locale.ROOT);
        if (typed.matches("\\d{6}")) {
            byte[] sealed = jdbc.sql("select totp_secret_sealed from dashboard_users where id = ? "
                    + "and totp_enabled_at is not null").param(userId).query(byte[].class).optional().orElse(null);
            if (sealed == null) {
                return Optional.empty();
            }
            String secret = new String(box.open(sealed, context(userId)), StandardCharsets.US_ASCII);
            OptionalLong step = matchingStep(secret, typed);
            if (step.isEmpty()) {
                return Optional.empty();
            }
            int used = jdbc.sql("update dashboard_users set totp_last_step = ? where id = ? "
                            + "and (totp_last_step is null or totp_last_step < ?)")
                    .params(step.getAsLong(), userId, step.getAsLong()).update();
            return used == 1 ? Optional.of(Factor.CODE) : Optional.empty();
        }
        if (typed.matches("[a-z2-7]{16}")) {
            int used = jdbc.sql("update dashboard_recovery_codes set used_at = ? where user_id = ? and code_hash = ? "
                            + "and used_at is null")
                    .params(clock.instant().atOffset(ZoneOffset.UTC), userId, recoveryHash.of(typed)).update();
            return used == 1 ? Optional.of(Factor.RECOVERY_CODE) : Optional.empty();
        }
        return Optional.empty();
    }

    /** The step ({@code epochSecond / 30}) among now-1, now and now+1 at which {@code code} is right. */
    private OptionalLong matchingStep(String secret, String code) {
        String typed = code == null ? "" : code.replaceAll("\\s", "");
        if (!typed.matches("\\d{6}")) {
            return OptionalLong.empty();
        }
        var key = new SecretKeySpec(new Base32().decode(secret), totp.getAlgorithm());
        Instant now = clock.instant();
        long seconds = totp.getTimeStep().toSeconds();
        try {
            for (int offset = -1; offset <= 1; offset++) {
                Instant at = now.plusSeconds(offset * seconds);
                if (java.security.MessageDigest.isEqual(
                        totp.generateOneTimePasswordString(key, at).getBytes(StandardCharsets.US_ASCII),
                        typed.getBytes(StandardCharsets.US_ASCII))) {
                    return OptionalLong.of(at.getEpochSecond() / seconds);
                }
            }
        } catch (InvalidKeyException e) {
            throw new IllegalStateException("a TOTP secret is not a usable HMAC key", e);
        }
        return OptionalLong.empty();
    }

    private List<String> newRecoveryCodes(String userId) {
        List<String> codes = new ArrayList<>();
        Base32 base32 = new Base32();
        for (int i = 0; i < RECOVERY_CODES; i++) {
            byte[] random = new byte[RECOVERY_CODE_BYTES];
            RANDOM.nextBytes(random);
            String code = base32.encodeAsString(random).toLowerCase(Locale.ROOT);
            jdbc.sql("insert into dashboard_recovery_codes (user_id, code_hash, created_at) values (?, ?, ?)")
                    .params(userId, recoveryHash.of(code), clock.instant().atOffset(ZoneOffset.UTC)).update();
            codes.add(String.join("-", code.split("(?<=\\G.{4})")));
        }
        return codes;
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("dashboard_users", "totp_secret_sealed", "id", SecondFactors::context));
    }

    /** Binds a sealed secret to its user. */
    private static String context(String userId) {
        return "dashboard-totp:" + userId;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
