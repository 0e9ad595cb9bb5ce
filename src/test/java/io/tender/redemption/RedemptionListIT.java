package io.tender.redemption;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.RawHttp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.ott;
import static io.tender.support.Vouchers.pin;
import static io.tender.support.Vouchers.providerC;
import static io.tender.support.Vouchers.token;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/** GET /collect/redemptions: decisions §1 "Lists" (cursor pagination, newest first) and its filters. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedemptionListIT extends ApiIntegrationTest {

    private static final int CONFIRMED_ONE_VOUCHER = 15;
    private static final int FAILED = 4;
    private static final int OTT = 3;
    private static final int PROVIDER_C = 3;
    private static final int TOTAL = CONFIRMED_ONE_VOUCHER + FAILED + OTT + PROVIDER_C;

    /** One merchant with 25 redemptions, shared by the tests of this class (they only read). */
    private Api api;
    private List<JsonNode> all;

    @BeforeEach
    void redemptionsOnce() {
        if (api != null) {
            return;
        }
        api = merchants.create().test();
        for (int i = 0; i < CONFIRMED_ONE_VOUCHER; i++) {
            String reference = i < 2 ? "order-shared" : "order-" + i;
            create("{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + validPin()
                    + "\"},\"external_reference\":\"" + reference + "\"}");
            if (i == 7) {
                for (String suffix : List.of("0003", "0002", "0003", "0002")) {
                    create(oneVoucher(pin(suffix)));
                }
                for (int j = 0; j < OTT; j++) {
                    create(ott(token("55" + j + "7"), "+27821234567"));
                }
                for (int j = 0; j < PROVIDER_C; j++) {
                    create(providerC(token("66" + j + "7")));
                }
            }
        }
        all = page("?limit=100").get("data").valueStream().toList();
        assertThat(all).hasSize(TOTAL);
    }

    private void create(String body) {
        var response = api.post("/collect/redemptions", body).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
    }

    private JsonNode page(String query) {
        var response = api.get("/collect/redemptions" + query).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode page = response.json();
        assertThat(page.get("has_more").isBoolean()).isTrue();
        assertThat(page.has("next_cursor")).as("next_cursor is always present").isTrue();
        JsonNode next = page.get("next_cursor");
        if (page.get("has_more").booleanValue()) {
            String lastId = page.get("data").get(page.get("data").size() - 1).get("id").stringValue();
            assertThat(next.stringValue()).isEqualTo(lastId);
            assertThat(response.header("Next-Cursor")).isEqualTo(lastId);
        } else {
            assertThat(next.isNull()).isTrue();
            assertThat(response.header("Next-Cursor")).isNull();
        }
        return page;
    }

    /** Follows next_cursor to the end; returns the ids in the order they came. */
    private List<String> walk(String filters, int limit) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            String query = "?limit=" + limit + filters + (cursor == null ? "" : "&cursor=" + cursor);
            JsonNode page = page(query);
            assertThat(page.get("data").size()).isLessThanOrEqualTo(limit);
            page.get("data").forEach(r -> ids.add(r.get("id").stringValue()));
            cursor = page.get("has_more").booleanValue() ? page.get("next_cursor").stringValue() : null;
            assertThat(++pages).isLessThanOrEqualTo(TOTAL + 1);
        } while (cursor != null);
        return ids;
    }

    private static List<String> ids(JsonNode page) {
        return page.get("data").valueStream().map(r -> r.get("id").stringValue()).toList();
    }

    @Test
    void theDefaultPageHolds20WithTheCursorOfTheNext() {
        JsonNode page = page("");
        assertThat(page.get("data")).hasSize(20);
        assertThat(page.get("has_more").booleanValue()).isTrue();
        assertThat(ids(page)).isEqualTo(all.subList(0, 20).stream().map(r -> r.get("id").stringValue()).toList());
    }

    @Test
    void aPageOfExactlyTheRemainingItemsHasNoMore() {
        assertThat(page("?limit=" + TOTAL).get("has_more").booleanValue()).isFalse();
        assertThat(page("?limit=" + (TOTAL - 1)).get("has_more").booleanValue()).isTrue();
        assertThat(page("?limit=1").get("data")).hasSize(1);
    }

    @Test
    void theNewestComesFirst() {
        for (int i = 1; i < all.size(); i++) {
            JsonNode newer = all.get(i - 1);
            JsonNode older = all.get(i);
            assertThat(newer.get("id").stringValue()).isGreaterThan(older.get("id").stringValue());
            assertThat(Instant.parse(newer.get("created_at").stringValue()))
                    .isAfterOrEqualTo(Instant.parse(older.get("created_at").stringValue()));
        }
    }

    @Test
    void walkingThePagesReturnsEveryRedemptionExactlyOnceInOrder() {
        List<String> expected = all.stream().map(r -> r.get("id").stringValue()).toList();
        for (int limit : List.of(1, 7, 20, 24, 100)) {
            assertThat(walk("", limit)).as("limit " + limit).isEqualTo(expected);
        }
    }

    @Test
    void retrievingARedemptionGivesWhatTheListShows() {
        JsonNode listed = all.get(3);
        assertThat(api.get("/collect/redemptions/" + listed.get("id").stringValue()).send().json()).isEqualTo(listed);
    }

    @Test
    void statusAndTypeFilterAndPaginateTogether() {
        assertThat(walk("&status=failed", 3)).hasSize(FAILED);
        assertThat(all(walk("&status=failed", 3), "status")).containsOnly("failed");
        assertThat(walk("&status=confirmed", 5)).hasSize(TOTAL - FAILED);
        assertThat(walk("&status=draft", 5)).isEmpty();
        assertThat(walk("&status=reserved", 5)).isEmpty();

        assertThat(walk("&type=vouchers.ott", 2)).hasSize(OTT);
        assertThat(all(walk("&type=vouchers.ott", 2), "type")).containsOnly("vouchers.ott");
        assertThat(walk("&type=vouchers.provider_c", 2)).hasSize(PROVIDER_C);
        assertThat(walk("&type=vouchers.one_voucher", 10)).hasSize(CONFIRMED_ONE_VOUCHER + FAILED);
        assertThat(walk("&type=vouchers.one_voucher&status=failed", 10)).hasSize(FAILED);
        assertThat(walk("&type=vouchers.ott&status=failed", 10)).isEmpty();
    }

    @Test
    void externalReferenceFiltersExactly() {
        List<String> shared = walk("&external_reference=order-shared", 1);
        assertThat(shared).hasSize(2);
        assertThat(all(shared, "external_reference")).containsOnly("order-shared");
        assertThat(walk("&external_reference=order-5", 10)).hasSize(1);
        assertThat(walk("&external_reference=order-", 10)).isEmpty();
        assertThat(walk("&external_reference=ORDER-5", 10)).isEmpty();
    }

    @Test
    void createdAtBoundsSplitTheListWithoutGapOrOverlap() {
        String boundary = all.get(10).get("created_at").stringValue();
        List<String> from = walk("&created_at%5Bgte%5D=" + boundary, 4);
        List<String> before = walk("&created_at%5Blt%5D=" + boundary, 4);

        Set<String> union = new HashSet<>(from);
        union.addAll(before);
        assertThat(union).hasSize(TOTAL);
        assertThat(from).doesNotContainAnyElementsOf(before);
        assertThat(from).contains(all.get(10).get("id").stringValue());
        for (JsonNode r : all) {
            boolean atOrAfter = !Instant.parse(r.get("created_at").stringValue()).isBefore(Instant.parse(boundary));
            assertThat(from.contains(r.get("id").stringValue())).isEqualTo(atOrAfter);
        }
        // Both bounds together: a window.
        String upper = all.get(2).get("created_at").stringValue();
        List<String> window = walk("&created_at%5Bgte%5D=" + boundary + "&created_at%5Blt%5D=" + upper, 3);
        assertThat(window).isNotEmpty().isSubsetOf(from).doesNotContain(all.get(2).get("id").stringValue());
    }

    @Test
    void filterBracketsMayBeSentUnencodedAsTheDocumentationWritesThem() {
        // curl -g and many HTTP clients send the brackets as they are; the answer must be the list, not an HTML error.
        String boundary = all.get(10).get("created_at").stringValue();
        RawHttp.Response response = RawHttp.get(port, "/collect/redemptions?limit=100&created_at[gte]=" + boundary, api.key());
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        assertThat(response.text()).startsWith("{\"data\":[");
        JsonNode page = Api.JSON.readTree(response.body());
        assertThat(ids(page)).isEqualTo(walk("&created_at%5Bgte%5D=" + boundary, 100));
    }

    @Test
    void aQueryThatCannotBeDecodedIsABadRequest() {
        RawHttp.Response response = RawHttp.get(port, "/collect/redemptions?limit=%zz", api.key());
        assertThat(response.status()).as(response.text()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = Api.JSON.readTree(response.body());
        assertThat(problem.get("code").stringValue()).isEqualTo("bad_request");
        assertThat(problem.get("errors").get(0).get("field").stringValue()).isEqualTo("query");
        assertThat(response.text()).doesNotContain("%zz");
    }

    @Test
    void aFreshMerchantHasAnEmptyList() {
        var response = merchants.create().test().get("/collect/redemptions").send();
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text()).isEqualTo("{\"data\":[],\"has_more\":false,\"next_cursor\":null}");
        assertThat(response.header("Next-Cursor")).isNull();
    }

    @ParameterizedTest(name = "?{0}")
    @CsvSource(delimiter = '|', value = {
            "limit=0|limit", "limit=101|limit", "limit=-1|limit", "limit=abc|limit", "limit=1.5|limit", "limit=|limit",
            "limit=10&limit=20|limit",
            "status=pending|status", "status=CONFIRMED|status", "type=vouchers.loyalty|type", "type=one_voucher|type",
            "created_at%5Bgte%5D=yesterday|created_at[gte]", "created_at%5Blt%5D=2026-13-01T00:00:00Z|created_at[lt]",
            "created_at%5Bgte%5D=2026-05-20|created_at[gte]",
            "cursor=abc|cursor", "cursor=rdm_0123456789abcdef0123456|cursor", "cursor=rdm_0123456789ABCDEF01234567|cursor",
            "cursor=bcus_0123456789abcdef01234567|cursor",
            "sort=created_at|sort", "created_at%5Bgt%5D=2026-05-20T00:00:00Z|created_at[gt]",
            "status=pending&limit=0&foo=1|status,limit,foo"})
    void aBadQueryIsABadRequestNamingEachParameter(String query, String fields) {
        assertBadRequest(api.get("/collect/redemptions?" + query).send(), fields.split(","));
    }

    private List<String> all(List<String> ids, String field) {
        return all.stream().filter(r -> ids.contains(r.get("id").stringValue()))
                .map(r -> r.get(field).stringValue()).toList();
    }
}
