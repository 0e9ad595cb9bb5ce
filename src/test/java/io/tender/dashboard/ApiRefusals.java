package io.tender.dashboard;

import io.tender.support.Api;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dashboard page that refuses what the API refuses says so in the API's words (decisions §11): the page's status is
 * the API's for the same request, and its alert is the API's {@code detail} word for word.
 */
final class ApiRefusals {

    private ApiRefusals() {
    }

    /** {@code refused}: the same request sent to the API (a refusal changes nothing, so it may be sent again). */
    static void assertShowsTheApisRefusal(DashboardClient.Page page, Api.Response refused) {
        assertThat(refused.status()).as("the API refuses it: %s", refused.text()).isBetween(400, 499);
        assertThat(page.status()).as("the page's status, the API's").isEqualTo(refused.status());
        assertThat(page.alert()).as("the page's alert, the API's words").isNotNull()
                .isEqualTo(refused.json().get("detail").stringValue());
    }
}
