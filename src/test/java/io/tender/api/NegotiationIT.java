package io.tender.api;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.RawHttp;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §12: a 204 never fails content negotiation, and authentication comes before it. Reproduces what the
 * attack found: {@code DELETE /collect/payment_pages/{id}} with {@code Accept: application/problem+json} (what the
 * committed document declares and the generated client sends) answered 406, and without a key 406 instead of 401.
 */
class NegotiationIT extends ApiIntegrationTest {

    private static final String PROBLEM_ONLY = "Accept: application/problem+json";

    @Test
    void deletingAPageAcceptingOnlyProblemJsonAnswers204AndWithoutAKey401() {
        Merchant merchant = merchants.create();
        String id = merchant.test().post("/collect/payment_pages", "{\"title\":\"Stall\",\"currency\":\"ZAR\",\"amount\":1500}")
                .send().json().get("id").stringValue();

        var anonymous = RawHttp.send(port, "DELETE", "/collect/payment_pages/" + id, null, PROBLEM_ONLY);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.header("Content-Type")).startsWith("application/problem+json");
        assertThat(anonymous.header("WWW-Authenticate")).isEqualTo("Bearer");

        var badKey = RawHttp.send(port, "DELETE", "/collect/payment_pages/" + id, null, PROBLEM_ONLY,
                "Authorization: Bearer sk_test_not_a_key_at_all_0000000000");
        assertThat(badKey.status()).isEqualTo(401);
        assertThat(merchant.test().get("/collect/payment_pages/" + id).send().status()).as("still there").isEqualTo(200);

        var deleted = RawHttp.send(port, "DELETE", "/collect/payment_pages/" + id, null, PROBLEM_ONLY,
                "Authorization: Bearer " + merchant.test().key());
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(merchant.test().get("/collect/payment_pages/" + id).send().status()).isEqualTo(404);
    }

    @Test
    void aKeyIsCheckedBeforeAnAcceptTheEndpointCannotServe() {
        Merchant merchant = merchants.create();
        var anonymous = RawHttp.get(port, "/collect/payments", null, "Accept: text/html");
        assertThat(anonymous.status()).as("no key: 401 whatever it accepts").isEqualTo(401);

        var withKey = RawHttp.get(port, "/collect/payments", merchant.test().key(), "Accept: text/html");
        assertThat(withKey.status()).as("with a key, the Accept it cannot serve").isEqualTo(406);
        assertThat(withKey.text()).contains("application/json only");

        var unknownPath = RawHttp.get(port, "/collect/no_such_thing", null, "Accept: text/html");
        assertThat(unknownPath.status()).as("a path no handler serves is not a key question").isIn(404, 406);
    }
}
