package io.tender.dashboard;

import io.tender.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session limits of decisions §11 (30 minutes idle, 12 hours at most) with seconds instead: a context of its
 * own whose settings say 2 seconds idle and 6 seconds at most.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "tender.bootstrap-keys=",
        "management.server.port=0",
        "tender.dashboard.idle-timeout=PT2S",
        "tender.dashboard.absolute-timeout=PT6S",
})
class DashboardSessionTimeoutsIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("dashboard-timeouts");

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    private DashboardClient signedIn() {
        var merchant = merchants.create();
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"t-" + UUID.randomUUID() + "@example.com\",\"role\":\"viewer\"}").send();
        DashboardClient browser = new DashboardClient(base());
        browser.acceptLink(created.json().get("sign_in_url").stringValue(), DashboardSignInIT.PASSWORD);
        assertThat(browser.get("/dashboard/test").status()).isEqualTo(200);
        return browser;
    }

    @Test
    void aSessionLeftIdleLongerThanTheIdleLimitIsSignedOut() throws InterruptedException {
        DashboardClient browser = signedIn();
        Thread.sleep(3_500);
        var page = browser.get("/dashboard/test");
        assertThat(page.status()).isEqualTo(302);
        assertThat(page.location()).endsWith("/dashboard/sign-in");
    }

    @Test
    void aBusySessionEndsAtTheAbsoluteLimitAfterSignIn() throws InterruptedException {
        DashboardClient browser = signedIn();
        long start = System.nanoTime();
        int lastStatus = 200;
        // A request every second keeps it from going idle; it still ends 6 seconds after sign-in.
        while (System.nanoTime() - start < 9_000_000_000L && lastStatus == 200) {
            Thread.sleep(1_000);
            lastStatus = browser.get("/dashboard/test").status();
            if (System.nanoTime() - start < 4_500_000_000L) {
                assertThat(lastStatus).as("still signed in before the limit").isEqualTo(200);
            }
        }
        assertThat(lastStatus).isEqualTo(302);
        assertThat((System.nanoTime() - start) / 1e9).isGreaterThanOrEqualTo(4.5);
    }
}
