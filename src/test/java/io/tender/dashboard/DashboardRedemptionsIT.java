package io.tender.dashboard;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.providerC;
import static io.tender.support.Vouchers.token;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's Redemptions pages over real HTTP (decisions §11), with redemptions made through the real API at the
 * sandbox providers under a test key: the list holds only the merchant's redemptions of the URL's mode, filtered by
 * status and found by id; a redemption's page shows its operation history, its change voucher and its events; and no
 * page's HTML ever holds a voucher PIN, a token or a change voucher's PIN unmasked (decisions §1 "Sensitive values"),
 * only their last 4 characters.
 */
class DashboardRedemptionsIT extends ApiIntegrationTest {

    private static final Pattern LINKS = Pattern.compile("href=\"/dashboard/test/redemptions/(rdm_[a-f0-9]+)\"");

    private Merchant merchant;
    private DashboardClient viewer;

    @BeforeEach
    void merchantWithAViewer() {
        merchant = merchants.create();
        viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.132");
    }

    private static JsonNode redeem(Api api, String body) {
        var response = api.post("/collect/redemptions", body).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    private static List<String> links(String body) {
        List<String> ids = new ArrayList<>();
        Matcher m = LINKS.matcher(body);
        while (m.find()) {
            if (!ids.contains(m.group(1))) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }

    /** The page's raw HTML holds none of the secrets in full, and each of them only as its last 4 characters. */
    private static void noSecretUnmasked(String html, List<String> secrets) {
        for (String secret : secrets) {
            assertThat(html).as("a voucher secret in full").doesNotContain(secret);
            // Nor a longer part of it that would give more than the last 4 away (the first 12 characters, say).
            assertThat(html).doesNotContain(secret.substring(0, secret.length() - 4));
        }
    }

    @Test
    void theListAndEveryRedemptionsPageShowVouchersOnlyMaskedAndOnlyTheMerchantsOfTheMode() {
        Api api = merchant.test();
        String fullPin = validPin();
        JsonNode full = redeem(api, oneVoucher(fullPin));
        String notFoundPin = pin("0002");
        JsonNode failed = redeem(api, oneVoucher(notFoundPin));
        String partialPin = validPin();
        JsonNode partial = redeem(api, oneVoucher(partialPin, 2500));
        String changePin = partial.get("change_voucher").get("pin").stringValue();
        String cToken = token("4567");
        JsonNode providerCPartial = redeem(api, "{\"type\":\"vouchers.provider_c\",\"source\":{\"token\":\"" + cToken
                + "\"},\"amount\":5000,\"currency\":\"ZAR\",\"external_reference\":\"till-9\"}");
        String cChangePin = providerCPartial.get("change_voucher").get("pin").stringValue();
        JsonNode foreign = redeem(merchants.create().test(), oneVoucher(validPin()));
        List<String> secrets = List.of(fullPin, notFoundPin, partialPin, changePin, cToken, cChangePin);
        assertThat(changePin).as("the create answered the change PIN in full").matches("^\\d{16}$");

        var list = viewer.get("/dashboard/test/redemptions");
        assertThat(list.status()).isEqualTo(200);
        assertThat(links(list.body())).as("newest first, the merchant's only").containsExactly(
                providerCPartial.get("id").stringValue(), partial.get("id").stringValue(),
                failed.get("id").stringValue(), full.get("id").stringValue());
        assertThat(list.body()).contains("************" + fullPin.substring(12))
                .contains("OneVoucher").contains("Provider C").contains("Confirmed").contains("Failed")
                .contains("ZAR 100.00").contains("ZAR 25.00").contains("till-9")
                .doesNotContain(foreign.get("id").stringValue());
        noSecretUnmasked(list.body(), secrets);

        assertThat(links(viewer.get("/dashboard/test/redemptions?status=failed").body()))
                .containsExactly(failed.get("id").stringValue());
        assertThat(links(viewer.get("/dashboard/test/redemptions?q=" + partial.get("id").stringValue()).body()))
                .containsExactly(partial.get("id").stringValue());
        assertThat(links(viewer.get("/dashboard/test/redemptions?q=till-9").body()))
                .containsExactly(providerCPartial.get("id").stringValue());
        assertThat(viewer.get("/dashboard/live/redemptions").body()).contains("No redemptions yet")
                .doesNotContain(full.get("id").stringValue());
        var refused = viewer.get("/dashboard/test/redemptions?status=spent");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("must be one of draft, reserved, confirmed, failed");

        for (JsonNode r : List.of(full, failed, partial, providerCPartial)) {
            var page = viewer.get("/dashboard/test/redemptions/" + r.get("id").stringValue());
            assertThat(page.status()).isEqualTo(200);
            noSecretUnmasked(page.body(), secrets);
        }
    }

    @Test
    void aRedemptionsPageShowsItsOperationHistoryItsMaskedChangeVoucherAndItsEvents() {
        String voucher = validPin();
        JsonNode partial = redeem(merchant.test(), oneVoucher(voucher, 2500));
        String id = partial.get("id").stringValue();
        String changePin = partial.get("change_voucher").get("pin").stringValue();
        JsonNode failed = redeem(merchant.test(), oneVoucher(pin("0003")));

        var page = viewer.get("/dashboard/test/redemptions/" + id);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("ZAR 25.00").contains("Confirmed").contains("OneVoucher")
                .contains("Operation history").contains("Confirm").contains("Succeeded")
                .as("the change voucher, its PIN masked").contains("Change voucher")
                .contains("************" + changePin.substring(12)).contains("ZAR 75.00")
                .contains(partial.get("change_voucher").get("serial_number").stringValue())
                .as("its events").contains("redemption.created").contains("redemption.confirmed")
                .contains("Voucher PIN").contains("************" + voucher.substring(12));
        noSecretUnmasked(page.body(), List.of(voucher, changePin));

        var failedPage = viewer.get("/dashboard/test/redemptions/" + failed.get("id").stringValue());
        assertThat(failedPage.body()).contains("Failed").contains("Reserve").contains("Confirm")
                .contains("BAD_REQUEST").contains("redemption.reserved").contains("redemption.failed");
    }

    @Test
    void anotherMerchantsRedemptionOrTheOtherModesIsANotFoundPage() {
        JsonNode foreign = redeem(merchants.create().test(), "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\""
                + validPin() + "\"},\"external_reference\":\"their-secret-order\"}");
        JsonNode mine = redeem(merchant.test(), oneVoucher(validPin()));

        for (String path : List.of("/dashboard/test/redemptions/" + foreign.get("id").stringValue(),
                "/dashboard/live/redemptions/" + mine.get("id").stringValue(), "/dashboard/test/redemptions/rdm_nope",
                "/dashboard/test/redemptions/anything")) {
            var page = viewer.get(path);
            assertThat(page.status()).as(path).isEqualTo(404);
            assertThat(page.body()).contains("Redemption not found").doesNotContain("their-secret-order")
                    .doesNotContain("Operation history");
        }
        assertThat(viewer.get("/dashboard/test/redemptions/" + mine.get("id").stringValue()).status())
                .isEqualTo(200);
    }

    @Test
    void pagesFollowOneAnotherWithoutAGapOrARepeat() {
        List<String> made = new ArrayList<>();
        for (int i = 0; i < RedemptionsController.PAGE_SIZE + 2; i++) {
            made.add(redeem(merchant.test(), oneVoucher(pin("0002"))).get("id").stringValue());
        }
        var first = viewer.get("/dashboard/test/redemptions?status=failed");
        List<String> seen = new ArrayList<>(links(first.body()));
        assertThat(seen).hasSize(RedemptionsController.PAGE_SIZE);
        Matcher next = Pattern.compile("href=\"([^\"]+)\" rel=\"next\"").matcher(first.body());
        assertThat(next.find()).isTrue();
        assertThat(next.group(1)).contains("status=failed");
        var second = viewer.get(next.group(1).replace("&amp;", "&"));
        assertThat(second.status()).isEqualTo(200);
        seen.addAll(links(second.body()));
        assertThat(seen).containsExactlyElementsOf(made.reversed());
        assertThat(second.body()).doesNotContain("rel=\"next\"");
    }
}
