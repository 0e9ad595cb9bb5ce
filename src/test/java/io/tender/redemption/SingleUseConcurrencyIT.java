package io.tender.redemption;

import io.tender.secrets.HashKeys;
import io.tender.secrets.SecretBox;
import io.tender.support.Api;
import io.tender.support.AtOnce;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/** Decisions §3: a voucher is single use, also when many tills try to redeem it in the same instant. */
class SingleUseConcurrencyIT extends ApiIntegrationTest {

    @Autowired
    private HashKeys hashKeys;

    @Autowired
    private SecretBox box;

    @Test
    void ofTwentyConcurrentFullRedeemsOfOnePinExactlyOneConfirms() throws Exception {
        String pin = validPin();
        JsonNode winner = exactlyOneOfTwentyConfirms(pin, oneVoucher(pin));
        assertThat(winner.get("redeemed_amount").longValue()).isEqualTo(10000);
        assertThat(winner.has("change_voucher")).isFalse();
    }

    @Test
    void ofTwentyConcurrentPartialRedeemsOfOnePinExactlyOneConfirmsAndIssuesChange() throws Exception {
        String pin = validPin();
        JsonNode winner = exactlyOneOfTwentyConfirms(pin, oneVoucher(pin, 1000));
        assertThat(winner.get("redeemed_amount").longValue()).isEqualTo(1000);
        assertThat(winner.get("change_voucher").get("amount").longValue()).isEqualTo(9000);
    }

    private JsonNode exactlyOneOfTwentyConfirms(String pin, String body) throws Exception {
        Api api = merchants.create().test();
        int tills = 20;
        // Different Idempotency-Keys: these are different requests, not retries of one.
        List<Api.Response> responses = AtOnce.send(tills, i ->
                api.post("/collect/redemptions", body).idempotencyKey(UUID.randomUUID().toString()).send());

        List<JsonNode> confirmed = new ArrayList<>();
        List<JsonNode> failed = new ArrayList<>();
        for (Api.Response response : responses) {
            assertThat(response.status()).as(response.toString()).isEqualTo(201);
            JsonNode redemption = response.json();
            (redemption.get("status").stringValue().equals("confirmed") ? confirmed : failed).add(redemption);
        }
        assertThat(confirmed).hasSize(1);
        assertThat(failed).hasSize(tills - 1);
        for (JsonNode redemption : failed) {
            assertThat(redemption.get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
            assertThat(redemption.has("redeemed_amount")).isFalse();
        }

        // The provider's own books agree: the voucher is redeemed, and exactly one confirm took its value.
        byte[] voucherKey = hashKeys.hash("sandbox-voucher/v1").of("vouchers.one_voucher:" + pin);
        assertThat(jdbc.sql("select state from sandbox_vouchers where voucher_key = ?").param(voucherKey)
                .query(String.class).list()).containsExactly("redeemed");
        List<String> confirmOutcomes = jdbc.sql("""
                        select operation_key, outcome from sandbox_operations where voucher_key = ? and kind = 'confirm'""")
                .param(voucherKey)
                .query((rs, i) -> Api.JSON.readTree(box.open(rs.getBytes("outcome"),
                        "sandbox-operation:" + rs.getString("operation_key"))).get("result").stringValue())
                .list();
        assertThat(confirmOutcomes).hasSize(tills);
        assertThat(confirmOutcomes.stream().filter("approved"::equals)).hasSize(1);
        return confirmed.getFirst();
    }
}
