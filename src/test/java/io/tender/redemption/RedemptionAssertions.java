package io.tender.redemption;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The shapes a redemption takes in the API, as decisions §2's version table gives them. */
final class RedemptionAssertions {

    private RedemptionAssertions() {
    }

    /** Refused before the voucher was touched: one failed reserve, version 2, its error as {@code last_error}. */
    static void assertFailedAtReserve(JsonNode r, String errorCode) {
        assertThat(r.get("status").stringValue()).as(r.toString()).isEqualTo("failed");
        assertThat(r.get("version").intValue()).isEqualTo(2);
        assertThat(r.get("operations")).hasSize(1);
        JsonNode reserve = r.get("operations").get(0);
        assertThat(reserve.get("type").stringValue()).isEqualTo("reserve");
        assertThat(reserve.get("status").stringValue()).isEqualTo("failed");
        assertThat(reserve.get("error").get("error_code").stringValue()).isEqualTo(errorCode);
        assertThat(r.get("last_error").get("error_code").stringValue()).isEqualTo(errorCode);
    }
}
