package io.tender.checkout;


import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The CSRF token every checkout form carries. It is a keyed hash of the checkout session, the form's purpose and the
 * number of attempts made so far, so it needs no cookie (an embedded checkout is a third-party frame, where browsers
 * drop cookies) and a form goes stale as soon as an attempt starts: a double click or a resubmitted old page starts
 * nothing twice. Together with the {@code Sec-Fetch-Site} check in {@link CheckoutController} a page of another site
 * can neither read a token nor post a form that passes.
 */
@Component
class FormTokens {

    enum Purpose {
        PAY, ACTION, CANCEL
    }

    private final KeyedHash hash;

    FormTokens(HashKeys hashKeys) {
        this.hash = hashKeys.hash("checkout-form-token/v1");
    }

    String issue(CheckoutPage session, Purpose purpose) {
        byte[] mac = hash.of(session.checkoutSessionId() + "|" + purpose + "|" + session.attempts() + "|" + session.state());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    boolean valid(CheckoutPage session, Purpose purpose, String token) {
        if (token == null || token.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(issue(session, purpose).getBytes(StandardCharsets.US_ASCII),
                token.getBytes(StandardCharsets.UTF_8));
    }
}
