package io.tender.provider;

import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.token;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/** Discovery (GET /collect/redemptions/types) and Stored Value (POST /stored_value/lookup) in test mode. */
class DiscoveryAndStoredValueIT extends ApiIntegrationTest {

    private Merchant merchant;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
    }

    @Test
    void discoveryListsEveryTypeWithItsCapabilitiesAndSourceFieldsAndPublicKeysMayCallIt() {
        var response = merchant.publicTest().get("/collect/redemptions/types").send();

        assertThat(response.status()).isEqualTo(200);
        JsonNode data = response.json().get("data");
        List<String> types = new ArrayList<>();
        data.forEach(t -> types.add(t.get("type").stringValue()));
        assertThat(types).containsExactly("vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c");

        JsonNode oneVoucher = data.get(0);
        assertThat(oneVoucher.get("category").stringValue()).isEqualTo("vouchers");
        assertThat(oneVoucher.get("name").stringValue()).isNotBlank();
        assertThat(oneVoucher.get("description").stringValue()).isNotBlank();
        JsonNode capabilities = oneVoucher.get("capabilities");
        assertThat(capabilities.get("redeem").booleanValue()).isTrue();
        assertThat(capabilities.get("reserve").booleanValue()).isFalse();
        assertThat(capabilities.get("lookup").booleanValue()).isFalse();
        assertThat(capabilities.get("refund").booleanValue()).isTrue();
        assertThat(capabilities.get("change_voucher").stringValue()).isEqualTo("INLINE");
        JsonNode pin = oneVoucher.get("required_fields").get(0);
        assertThat(pin.get("name").stringValue()).isEqualTo("pin");
        assertThat(pin.get("type").stringValue()).isEqualTo("string");
        assertThat(pin.get("required").booleanValue()).isTrue();
        assertThat(pin.get("sensitive").booleanValue()).isTrue();
        assertThat(pin.get("example").stringValue()).matches("^\\d{16}$");

        JsonNode ott = data.get(1);
        assertThat(ott.get("capabilities").get("change_voucher").stringValue()).isEqualTo("SMS");
        assertThat(ott.get("capabilities").get("lookup").booleanValue()).isTrue();
        List<String> ottFields = new ArrayList<>();
        ott.get("required_fields").forEach(f -> ottFields.add(f.get("name").stringValue()
                + ":" + f.get("sensitive").booleanValue()));
        assertThat(ottFields).containsExactly("pin:true", "phone_number:false");
        assertThat(data.get(2).get("required_fields").get(0).get("name").stringValue()).isEqualTo("token");
    }

    @Test
    void discoveryInLiveModeWithoutConfiguredProvidersListsNothing() {
        var response = merchant.publicLive().get("/collect/redemptions/types").send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("data")).isEmpty();
    }

    @Test
    void discoveryNeedsAKey() {
        assertThat(anonymous().get("/collect/redemptions/types").send().status()).isEqualTo(401);
    }

    @Test
    void aLookupAnswersTheBalanceWithTheSourceMasked() {
        String token = token("4417");
        var response = merchant.test().post("/stored_value/lookup",
                "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token + "\"}}").send();

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode balance = response.json();
        assertThat(balance.get("type").stringValue()).isEqualTo("vouchers.provider_c");
        assertThat(balance.get("balance").longValue()).isEqualTo(20000);
        assertThat(balance.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(balance.get("source").get("token").stringValue()).endsWith("4417").startsWith("*");
        assertThat(balance.get("provider_metadata").isObject()).isTrue();
        assertThat(response.text()).doesNotContain(token);
    }

    @Test
    void anOttLookupAnswersTheBalanceWithThePinMaskedAndThePhoneNumberShown() {
        String pin = token("4427");
        var response = merchant.test().post("/stored_value/lookup",
                "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"" + pin + "\",\"phone_number\":\"+27821234567\"}}")
                .send();

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode balance = response.json();
        assertThat(balance.get("type").stringValue()).isEqualTo("vouchers.ott");
        assertThat(balance.get("balance").longValue()).isEqualTo(5000);
        assertThat(balance.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(balance.get("source").get("pin").stringValue())
                .isEqualTo("*".repeat(pin.length() - 4) + pin.substring(pin.length() - 4));
        assertThat(balance.get("source").get("phone_number").stringValue()).isEqualTo("+27821234567");
        assertThat(balance.get("provider_metadata").isObject()).isTrue();
        assertThat(response.text()).doesNotContain(pin);
    }

    @Test
    void aLookupNeverChangesTheVoucherAndSeesWhatARedeemDid() {
        String token = token("5517");
        String lookup = "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token + "\"}}";
        assertThat(merchant.test().post("/stored_value/lookup", lookup).send().json().get("balance").longValue())
                .isEqualTo(20000);
        assertThat(merchant.test().post("/stored_value/lookup", lookup).send().json().get("balance").longValue())
                .isEqualTo(20000);

        var redeemed = merchant.test().post("/collect/redemptions",
                "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token + "\"}}").send();
        assertThat(redeemed.json().get("status").stringValue()).isEqualTo("confirmed");
        assertThat(merchant.test().post("/stored_value/lookup", lookup).send().json().get("balance").longValue())
                .isZero();
    }

    @Test
    void theBalanceOfAProviderCChangeVoucherIsFoundByLookingUpItsPin() {
        var partial = merchant.test().post("/collect/redemptions", "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\""
                + token("6617") + "\"},\"amount\":1500,\"currency\":\"ZAR\"}").send().json();
        String changePin = partial.get("change_voucher").get("pin").stringValue();

        var balance = merchant.test().post("/stored_value/lookup",
                "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + changePin + "\"}}").send();
        assertThat(balance.json().get("balance").longValue()).isEqualTo(18500);
    }

    @Test
    void aTypeWithoutLookupIs422() {
        var response = merchant.test().post("/stored_value/lookup", "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + validPin() + "\"}}").send();

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.json().get("code").stringValue()).isEqualTo("operation_not_allowed");
    }

    @Test
    void aVoucherTheProviderCannotFindIs422NamingTheProviderCode() {
        var response = merchant.test().post("/stored_value/lookup", "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\""
                + token("0002") + "\",\"phone_number\":\"+27821234567\"}}").send();

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.json().get("detail").stringValue()).contains("ott.2402");
    }

    @Test
    void aLookupValidatesItsSourceLikeACreate() {
        var response = merchant.test().post("/stored_value/lookup",
                "{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"x\",\"phone_number\":\"0821234567\",\"extra\":1},\"more\":2}")
                .send();

        assertThat(response.status()).isEqualTo(400);
        List<String> fields = new ArrayList<>();
        response.json().get("errors").forEach(e -> fields.add(e.get("field").stringValue()));
        assertThat(fields).containsExactlyInAnyOrder("more", "source.extra", "source.pin", "source.phone_number");
    }

    @Test
    void publicKeysMayNotLookUpBalances() {
        var response = merchant.publicTest().post("/stored_value/lookup",
                "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token("1117") + "\"}}").send();

        assertThat(response.status()).isEqualTo(403);
    }

    @Test
    void aLookupWithAnIdempotencyKeyReplaysItsAnswer() {
        String body = "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token("7717") + "\"}}";
        var first = merchant.test().post("/stored_value/lookup", body).idempotencyKey("lookup-1").send();
        var again = merchant.test().post("/stored_value/lookup", body).idempotencyKey("lookup-1").send();

        assertThat(again.bytes()).isEqualTo(first.bytes());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(merchant.test().post("/collect/redemptions", oneVoucher(validPin())).idempotencyKey("lookup-1")
                .send().status()).isEqualTo(409);
    }
}
