package io.tender.dashboard;

import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import io.tender.support.MovableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's time limits, with their real lengths, on a clock the test moves (nothing here waits, so nothing
 * depends on how fast the machine is): a session ends 30 minutes after its last request and 12 hours after sign-in
 * however busy (decisions §11); and the re-authentication window set to zero
 * ({@code TENDER_DASHBOARD_REAUTHENTICATION_WINDOW=PT0S}, decisions §13) asks for the password at every sensitive
 * action, however recent the last confirmation.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
        "management.server.port=0",
        "tender.dashboard.reauthentication-window=PT0S",
})
@Import(MovableClock.AsTheServicesClock.class)
class DashboardSessionTimeoutsIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("dashboard-timeouts");
    private static final Duration IDLE = Duration.ofMinutes(30);
    private static final Duration ABSOLUTE = Duration.ofHours(12);

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    @Autowired
    private MovableClock clock;

    private Merchant merchant;

    @BeforeEach
    void aMerchantOnTheRealTime() {
        clock.set(Instant.now());
        merchant = merchants.create();
    }

    private DashboardClient signedIn(String role) {
        DashboardClient browser = DashboardClient.member(base(), merchants, merchant, role, null);
        assertThat(browser.get("/dashboard/test").status()).isEqualTo(200);
        return browser;
    }

    private static void assertSignedOut(DashboardClient browser) {
        var page = browser.get("/dashboard/test");
        assertThat(page.status()).isEqualTo(302);
        assertThat(page.location()).endsWith("/dashboard/sign-in");
    }

    @Test
    void aSessionEndsThirtyMinutesAfterItsLastRequestAndEachRequestStartsTheThirtyMinutesAgain() {
        DashboardClient browser = signedIn("viewer");

        clock.advance(IDLE.minusSeconds(1));
        assertThat(browser.get("/dashboard/test").status()).as("a second before the idle limit").isEqualTo(200);
        clock.advance(IDLE.minusSeconds(1));
        assertThat(browser.get("/dashboard/test").status()).as("counted from the last request, not sign-in")
                .isEqualTo(200);
        clock.advance(IDLE);
        assertSignedOut(browser);
        clock.advance(Duration.ofSeconds(1));
        assertSignedOut(browser);
    }

    @Test
    void aBusySessionEndsTwelveHoursAfterSignInHoweverOftenItIsUsed() {
        DashboardClient browser = signedIn("viewer");
        Duration elapsed = Duration.ZERO;
        Duration step = Duration.ofMinutes(29);
        while (elapsed.plus(step).compareTo(ABSOLUTE) < 0) {
            clock.advance(step);
            elapsed = elapsed.plus(step);
            assertThat(browser.get("/dashboard/test").status()).as("busy, " + elapsed + " after sign-in")
                    .isEqualTo(200);
        }
        clock.advance(ABSOLUTE.minus(elapsed).minusSeconds(1));
        assertThat(browser.get("/dashboard/test").status()).as("a second before 12 hours").isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertSignedOut(browser);
    }

    @Test
    void withTheWindowAtZeroEverySensitiveActionAsksForThePasswordAgain() {
        DashboardClient owner = signedIn("owner");
        owner.get("/dashboard/test/team");
        var asked = owner.post("/dashboard/test/team/invitations",
                Map.of("email", "viewer-a@example.com", "role", "viewer"));
        assertThat(asked.status()).isEqualTo(200);
        assertThat(asked.body()).contains("Confirm it is you")
                .contains("You will be asked again at the next such action.");
        var done = owner.post("/dashboard/test/team/invitations", Map.of("email", "viewer-a@example.com",
                "role", "viewer", "reauth_password", DashboardSignInIT.PASSWORD));
        assertThat(done.status()).isEqualTo(303);

        owner.get("/dashboard/test/team");
        var again = owner.post("/dashboard/test/team/invitations",
                Map.of("email", "viewer-b@example.com", "role", "viewer"));
        assertThat(again.status()).as("the same second, asked again").isEqualTo(200);
        assertThat(again.body()).contains("Confirm it is you");
        assertThat(jdbc.sql("select count(*) from dashboard_users where merchant_id = ?").param(merchant.id())
                .query(Long.class).single()).as("the owner and the first invitation only").isEqualTo(2);
    }
}
