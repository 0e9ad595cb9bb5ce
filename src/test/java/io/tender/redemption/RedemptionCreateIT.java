package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.ChangePins;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.ott;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.providerC;
import static io.tender.support.Vouchers.token;
import static io.tender.support.Vouchers.validPin;
import static io.tender.redemption.RedemptionAssertions.assertFailedAtReserve;
import static org.assertj.core.api.Assertions.assertThat;

/** POST /collect/redemptions against the sandbox: the spec's resource tables, create rules 1–3 and decisions §2–§3. */
class RedemptionCreateIT extends ApiIntegrationTest {

    private static final String TIMESTAMP = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

    private Api api;

    @BeforeEach
    void merchant() {
        Merchant merchant = merchants.create();
        api = merchant.test();
    }

    private JsonNode create(String body) {
        var response = api.post("/collect/redemptions", body).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        assertThat(response.contentType()).startsWith("application/json");
        return response.json();
    }

    @Test
    void fullRedeemOfAHoldlessProviderReservesThenConfirmsAtVersionThree() {
        String pin = validPin();
        JsonNode r = create(oneVoucher(pin));

        assertThat(r.get("id").stringValue()).matches("^rdm_[a-f0-9]{24}$");
        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("type").stringValue()).isEqualTo("vouchers.one_voucher");
        // Rule 2: no amount requested, so amount, redeemed_amount and currency are the provider's (10000 ZAR default).
        assertThat(r.get("amount").longValue()).isEqualTo(10000);
        assertThat(r.get("reserved_amount").longValue()).isEqualTo(10000);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(10000);
        assertThat(r.get("reversed_amount").longValue()).isZero();
        assertThat(r.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(r.get("source").get("pin").stringValue()).isEqualTo("************" + pin.substring(12));
        assertThat(r.get("related_ids").isArray()).isTrue();
        assertThat(r.get("related_ids")).isEmpty();
        assertThat(r.has("change_voucher")).isFalse();
        assertThat(r.has("last_error")).isFalse();
        assertThat(r.get("created_at").stringValue()).matches(TIMESTAMP);
        assertThat(r.get("updated_at").stringValue()).matches(TIMESTAMP);
        assertThat(Instant.parse(r.get("updated_at").stringValue()))
                .isAfterOrEqualTo(Instant.parse(r.get("created_at").stringValue()));

        JsonNode operations = r.get("operations");
        assertThat(operations).hasSize(2);
        JsonNode reserve = operations.get(0);
        JsonNode confirm = operations.get(1);
        assertThat(reserve.get("type").stringValue()).isEqualTo("reserve");
        assertThat(reserve.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(reserve.get("amount").longValue()).isEqualTo(10000);
        assertThat(reserve.get("provider_reference").get("pin").stringValue()).isEqualTo("************" + pin.substring(12));
        assertThat(confirm.get("type").stringValue()).isEqualTo("confirm");
        assertThat(confirm.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(confirm.get("provider_reference").get("serial_number").stringValue()).matches("^\\d{12}$");
        for (JsonNode operation : operations) {
            assertThat(operation.get("id").stringValue()).matches("^op_[a-f0-9]{24}$");
            assertThat(operation.get("created_at").stringValue()).matches(TIMESTAMP);
            assertThat(operation.has("error")).isFalse();
        }
        // provider_reference of the redemption is the confirm's.
        assertThat(r.get("provider_reference")).isEqualTo(confirm.get("provider_reference"));
    }

    @Test
    void aRejectedConfirmIsStillACreatedRedemptionThatFailedAtVersionTwo() {
        JsonNode r = create(oneVoucher(pin("0003")));

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("version").intValue()).isEqualTo(2);
        JsonNode operations = r.get("operations");
        assertThat(operations).hasSize(2);
        assertThat(operations.get(0).get("type").stringValue()).isEqualTo("reserve");
        assertThat(operations.get(0).get("status").stringValue()).isEqualTo("succeeded");
        JsonNode confirm = operations.get(1);
        assertThat(confirm.get("type").stringValue()).isEqualTo("confirm");
        assertThat(confirm.get("status").stringValue()).isEqualTo("failed");
        assertThat(confirm.get("error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
        assertThat(confirm.get("error").get("message").stringValue()).isNotBlank();
        assertThat(r.get("last_error")).isEqualTo(confirm.get("error"));
        assertThat(r.has("redeemed_amount")).isFalse();
    }

    /** A full-redeem request of the type whose PIN or token ends in {@code suffix}; returns the secret sent too. */
    private record Sandbox(String body, String secret) {
        static Sandbox of(String type, String suffix) {
            return switch (type) {
                case "vouchers.one_voucher" -> {
                    String pin = pin(suffix);
                    yield new Sandbox(oneVoucher(pin), pin);
                }
                case "vouchers.ott" -> {
                    String pin = token(suffix);
                    yield new Sandbox(ott(pin, "+27821234567"), pin);
                }
                case "vouchers.provider_c" -> {
                    String token = token(suffix);
                    yield new Sandbox(providerC(token), token);
                }
                default -> throw new IllegalArgumentException(type);
            };
        }
    }

    @ParameterizedTest(name = "{0} ending {1}: reserve fails with {2}")
    @CsvSource({
            "vouchers.one_voucher, 0002, one_voucher.2402",
            "vouchers.one_voucher, 0004, one_voucher.expired",
            "vouchers.one_voucher, 0005, one_voucher.transport_error",
            "vouchers.ott,         0002, ott.2402",
            "vouchers.ott,         0004, ott.expired",
            "vouchers.ott,         0005, ott.transport_error",
            "vouchers.provider_c,  0002, provider_c.2402",
            "vouchers.provider_c,  0004, provider_c.expired",
            "vouchers.provider_c,  0005, provider_c.transport_error"})
    void sandboxRefusalsBeforeTheVoucherIsTouchedFailTheReserve(String type, String suffix, String errorCode) {
        JsonNode r = create(Sandbox.of(type, suffix).body());

        assertFailedAtReserve(r, errorCode);
        assertThat(r.has("reserved_amount")).isFalse();
        assertThat(r.has("redeemed_amount")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"vouchers.ott, ott, 5000", "vouchers.provider_c, provider_c, 20000"})
    void eachProviderNamespacesItsErrorsAndResolvesItsDefaultValue(String type, String prefix, long value) {
        String valid = type.equals("vouchers.ott") ? ott(token("1237"), "+27821234567") : providerC(token("1237"));
        JsonNode ok = create(valid);
        assertThat(ok.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(ok.get("amount").longValue()).isEqualTo(value);
        assertThat(ok.get("redeemed_amount").longValue()).isEqualTo(value);

        String notFound = type.equals("vouchers.ott") ? ott(token("0002"), "+27821234567") : providerC(token("0002"));
        JsonNode failed = create(notFound);
        assertThat(failed.get("last_error").get("error_code").stringValue()).isEqualTo(prefix + ".2402");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"vouchers.one_voucher, 10000", "vouchers.ott, 5000", "vouchers.provider_c, 20000"})
    void aConfirmThatTimesOutAfterTheSandboxRedeemedIsResolvedToConfirmed(String type, long value) {
        // PIN or token ending 0006: the sandbox redeems, then does not answer; the service asks for the call's status.
        JsonNode r = create(Sandbox.of(type, "0006").body());

        assertThat(r.get("type").stringValue()).isEqualTo(type);
        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("version").intValue()).isEqualTo(3);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(value);
        assertThat(r.has("last_error")).isFalse();
        assertThat(r.get("operations")).hasSize(2);
        assertThat(r.get("operations").get(1).get("type").stringValue()).isEqualTo("confirm");
        assertThat(r.get("operations").get(1).get("status").stringValue()).isEqualTo("succeeded");
        assertThat(r.get("operations").get(1).get("provider_reference").get("serial_number").stringValue()).isNotBlank();
        // Resolved by asking, never by sending the confirm again: the sandbox saw one confirm and no reversal.
        String id = r.get("id").stringValue();
        assertThat(jdbc.sql("select kind from sandbox_operations where operation_key like ?")
                .param(id + ":%").query(String.class).list()).containsExactlyInAnyOrder("reserve", "confirm");
    }

    @Test
    void aStatedAmountBelowTheVoucherValueRedeemsInOneStepAndReturnsARedeemableChangeVoucher() {
        JsonNode r = create(oneVoucher(validPin(), 2500));

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.get("version").intValue()).isEqualTo(2);
        assertThat(r.get("amount").longValue()).isEqualTo(2500);
        assertThat(r.get("redeemed_amount").longValue()).isEqualTo(2500);
        assertThat(r.has("reserved_amount")).isFalse();
        assertThat(r.get("operations")).hasSize(1);
        assertThat(r.get("operations").get(0).get("type").stringValue()).isEqualTo("confirm");

        JsonNode change = r.get("change_voucher");
        assertThat(fieldNames(change)).containsExactly("pin", "serial_number", "amount", "expires_at", "status");
        assertThat(change.get("pin").stringValue()).matches("^\\d{16}$");
        assertThat(change.get("amount").longValue()).isEqualTo(7500);
        assertThat(change.get("status").stringValue()).isEqualTo("ACTIVE");

        // The change voucher is itself a voucher worth the remainder.
        JsonNode second = create(oneVoucher(change.get("pin").stringValue()));
        assertThat(second.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(second.get("redeemed_amount").longValue()).isEqualTo(7500);
        assertThat(second.has("change_voucher")).isFalse();
    }

    @Test
    void providerCChangeVouchersCarryAReferenceAndNoAmount() {
        JsonNode r = create("{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + token("4567")
                + "\"},\"amount\":5000,\"currency\":\"ZAR\"}");

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        JsonNode confirmReference = r.get("operations").get(0).get("provider_reference");
        assertThat(fieldNames(confirmReference)).containsExactlyInAnyOrder("token", "reference", "serial_number");
        assertThat(confirmReference.get("token").stringValue()).startsWith("****").endsWith("4567");
        JsonNode change = r.get("change_voucher");
        assertThat(change.has("amount")).isFalse();
        assertThat(fieldNames(change)).contains("pin", "serial_number", "reference")
                .isSubsetOf("pin", "serial_number", "reference", "expires_at", "barcode", "product_name",
                        "product_instructions", "product_help", "customer_message");

        JsonNode remainder = create(providerC(change.get("pin").stringValue()));
        assertThat(remainder.get("redeemed_amount").longValue()).isEqualTo(15000);
    }

    @Test
    void ottChangeGoesBySmsSoThePartialRedeemHasNoChangeVoucher() {
        JsonNode r = create("{\"type\":\"vouchers.ott\",\"source\":{\"pin\":\"" + token("2227")
                + "\",\"phone_number\":\"+27821234567\"},\"amount\":1000,\"currency\":\"ZAR\"}");

        assertThat(r.get("status").stringValue()).isEqualTo("confirmed");
        assertThat(r.has("change_voucher")).isFalse();
        assertThat(r.get("source").get("phone_number").stringValue()).isEqualTo("+27821234567");
        assertThat(r.get("source").get("pin").stringValue()).startsWith("*").endsWith("2227");
    }

    @Test
    void aVoucherIsSingleUseSoASecondRedeemFailsAsAlreadyUsed() {
        String pin = validPin();
        assertThat(create(oneVoucher(pin)).get("status").stringValue()).isEqualTo("confirmed");

        JsonNode again = create(oneVoucher(pin));
        assertThat(again.get("status").stringValue()).isEqualTo("failed");
        assertThat(again.get("last_error").get("error_code").stringValue()).isEqualTo("BAD_REQUEST");
    }

    @Test
    void anAmountAboveTheBalanceIsDeclinedAsInsufficientFunds() {
        JsonNode r = create(oneVoucher(validPin(), 10001));

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.insufficient_funds");
        assertThat(r.get("operations").get(0).get("status").stringValue()).isEqualTo("failed");
    }

    @Test
    void aCurrencyOtherThanZarIsDeclinedAtReserveAndTheResponseKeepsTheRequestedCurrency() {
        JsonNode r = create("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + validPin()
                + "\"},\"currency\":\"USD\"}");

        assertThat(r.get("status").stringValue()).isEqualTo("failed");
        assertThat(r.get("currency").stringValue()).isEqualTo("USD");
        assertThat(r.get("operations").get(0).get("type").stringValue()).isEqualTo("reserve");
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo("one_voucher.currency_not_supported");
    }

    @Test
    void optionalFieldsAreStoredAndReturnedAsGiven() {
        JsonNode r = create("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + validPin() + "\"},"
                + "\"redemption_options\":{\"till\":{\"id\":7},\"channel\":\"pos\"},"
                + "\"related_ids\":[\"order_1\",\"basket_9\"],"
                + "\"metadata\":{\"store\":\"cape-town-3\",\"cashier\":\"lindiwe\"},"
                + "\"external_reference\":\"sale-2026-0001\"}");

        assertThat(r.get("redemption_options").get("till").get("id").intValue()).isEqualTo(7);
        assertThat(r.get("redemption_options").get("channel").stringValue()).isEqualTo("pos");
        assertThat(r.get("related_ids").get(0).stringValue()).isEqualTo("order_1");
        assertThat(r.get("related_ids").get(1).stringValue()).isEqualTo("basket_9");
        assertThat(r.get("metadata").get("store").stringValue()).isEqualTo("cape-town-3");
        assertThat(r.get("metadata").get("cashier").stringValue()).isEqualTo("lindiwe");
        assertThat(r.get("external_reference").stringValue()).isEqualTo("sale-2026-0001");

        JsonNode fetched = api.get("/collect/redemptions/" + r.get("id").stringValue()).send().json();
        assertThat(fetched.get("metadata")).isEqualTo(r.get("metadata"));
        assertThat(fetched.get("redemption_options")).isEqualTo(r.get("redemption_options"));
        assertThat(fetched.get("related_ids")).isEqualTo(r.get("related_ids"));
        assertThat(fetched.get("external_reference")).isEqualTo(r.get("external_reference"));
    }

    @Test
    void theChangeVoucherPinIsShownInFullOnlyByTheCreateAndItsReplay() {
        String body = oneVoucher(validPin(), 100);
        String key = UUID.randomUUID().toString();
        var created = api.post("/collect/redemptions", body).idempotencyKey(key).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String changePin = created.json().get("change_voucher").get("pin").stringValue();
        assertThat(changePin).matches("^\\d{16}$");
        String id = created.json().get("id").stringValue();

        // The replay is the create's answer, byte for byte: the PIN in full.
        var replay = api.post("/collect/redemptions", body).idempotencyKey(key).send();
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.bytes()).isEqualTo(created.bytes());

        // Every later read shows the redemption as created, but the PIN masked like source.
        JsonNode shownLater = ChangePins.maskedLater(created.json());
        assertThat(shownLater.get("change_voucher").get("pin").stringValue())
                .isEqualTo("************" + changePin.substring(12));
        var fetched = api.get("/collect/redemptions/" + id).send();
        assertThat(fetched.status()).isEqualTo(200);
        assertThat(fetched.json()).isEqualTo(shownLater);
        JsonNode listed = api.get("/collect/redemptions?limit=1").send().json().get("data").get(0);
        assertThat(listed).isEqualTo(shownLater);
        assertThat(fetched.text()).doesNotContain(changePin);
        // And so do its events.
        List<String> events = jdbc.sql("select payload::text from outbox where aggregateid = ?").param(id)
                .query(String.class).list();
        assertThat(events).isNotEmpty().allSatisfy(event -> assertThat(event).doesNotContain(changePin));
        assertThat(events).anySatisfy(event -> assertThat(event).contains("************" + changePin.substring(12)));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
