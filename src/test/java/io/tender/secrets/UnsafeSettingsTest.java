package io.tender.secrets;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The thresholds of {@link UnsafeSettings}; {@code UnsafeSettingsIT} proves the refusal over a real start. */
class UnsafeSettingsTest {

    @Test
    void anAdminTokenOf32CharactersOrNoneIsAccepted() {
        assertThat(UnsafeSettings.problems(new MockEnvironment())).isEmpty();
        assertThat(UnsafeSettings.problems(new MockEnvironment().withProperty("tender.admin-token", "a".repeat(32)))).isEmpty();
        assertThat(UnsafeSettings.problems(new MockEnvironment().withProperty("tender.admin-token", "a".repeat(31))))
                .singleElement().asString().startsWith("TENDER_ADMIN_TOKEN");
        // Padding does not count.
        assertThat(UnsafeSettings.problems(new MockEnvironment().withProperty("tender.admin-token", " ".repeat(40)))).hasSize(1);
    }

    @Test
    void anExternalDatabaseNeedsAMasterKey() {
        var external = new MockEnvironment().withProperty("spring.datasource.url", "jdbc:postgresql://db/tender");
        assertThat(UnsafeSettings.problems(external)).singleElement().asString().contains("TENDER_MASTER_KEY is not set");
        assertThat(UnsafeSettings.problems(external.withProperty("tender.master-key", "a-key"))).isEmpty();
    }
}
