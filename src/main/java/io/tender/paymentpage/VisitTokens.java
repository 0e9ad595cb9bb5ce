package io.tender.paymentpage;

import io.tender.api.Ids;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * The CSRF token of a payment page's form: a fresh nonce, the time it was issued, and a keyed hash of both with the
 * page's id, so it needs no cookie and no row until a visit is posted. A token is good for {@link #LIFETIME}; its
 * nonce makes the same form posted twice (a double click, a resubmitted page) one visit. With the
 * {@code Sec-Fetch-Site} check, another site's page can neither read a token nor post a form that passes.
 */
@Component
class VisitTokens {

    static final Duration LIFETIME = Duration.ofHours(2);

    private final KeyedHash hash;

    VisitTokens(HashKeys hashKeys) {
        this.hash = hashKeys.hash("payment-page-form-token/v1");
    }

    String issue(String pageId, Instant now) {
        String nonce = Ids.randomHex(16);
        long issued = now.getEpochSecond();
        return nonce + "." + issued + "." + mac(pageId, nonce, issued);
    }

    /** The form's nonce, if the token was issued for this page and is still fresh. */
    Optional<String> nonce(String pageId, String token, Instant now) {
        if (token == null) {
            return Optional.empty();
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3 || !parts[0].matches("^[a-f0-9]{32}$") || !parts[1].matches("^[0-9]{1,12}$")) {
            return Optional.empty();
        }
        long issued = Long.parseLong(parts[1]);
        boolean fresh = !Instant.ofEpochSecond(issued).plus(LIFETIME).isBefore(now)
                && !Instant.ofEpochSecond(issued).isAfter(now.plusSeconds(60));
        boolean genuine = MessageDigest.isEqual(mac(pageId, parts[0], issued).getBytes(StandardCharsets.US_ASCII),
                parts[2].getBytes(StandardCharsets.UTF_8));
        return fresh && genuine ? Optional.of(parts[0]) : Optional.empty();
    }

    private String mac(String pageId, String nonce, long issued) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(hash.of(pageId + "|" + nonce + "|" + issued));
    }
}
