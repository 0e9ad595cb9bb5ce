package io.tender.dashboard;

import io.tender.support.AtOnce;
import io.tender.support.IntegrationTestSupport;
import io.tender.support.Merchants.Merchant;
import io.tender.support.SecondInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §13: the dashboard's sign-in throttles hold across instances and count an IPv6 client by its /64. Two
 * instances of the service on one PostgreSQL (this test's context and a {@link SecondInstance} on its database), the
 * §11 limits (10 failures per email in 15 minutes, 20 per address a minute), and clients that send every other
 * attempt to the other instance. Both instances stand behind a trusted proxy ({@code server.forward-headers-strategy
 * =native}; the test's loopback connection is that proxy), so {@code X-Forwarded-For} gives each client the address
 * it claims, IPv6 ones included. With limits per instance and per exact address, each of these attackers got twice
 * the guesses, and an IPv6 client as many as it has addresses.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "tender.admin-token=" + IntegrationTestSupport.ADMIN_TOKEN,
        "management.server.port=0",
        "tender.bootstrap-keys=",
        "server.forward-headers-strategy=native",
})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardSignInAcrossInstancesIT extends IntegrationTestSupport {

    private static final Path DATA_DIR = temporaryDataDirectory("dashboard-sign-in-instances");
    private static final String PASSWORD = DashboardSignInIT.PASSWORD;

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("tender.data-dir", DATA_DIR::toString);
    }

    @Autowired
    ApplicationContext context;

    private ConfigurableApplicationContext second;

    @BeforeAll
    void startTheSecondInstance() {
        second = SecondInstance.start(context, DATA_DIR.resolveSibling(DATA_DIR.getFileName() + "-second"),
                "--server.forward-headers-strategy=native");
    }

    @AfterAll
    void stopTheSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    /** A browser on instance {@code 0} or {@code 1}, from {@code address}, on the sign-in page. */
    private DashboardClient browser(int instance, String address) {
        String base = instance % 2 == 0 ? base() : SecondInstance.baseUrl(second);
        DashboardClient client = new DashboardClient(base).always("X-Forwarded-For", address);
        assertThat(client.get("/dashboard/sign-in").status()).isEqualTo(200);
        return client;
    }

    private record Member(Merchant merchant, String id, String email) {
    }

    /** A member of a new merchant who has chosen {@link #PASSWORD}. */
    private Member member(String setUpFrom) {
        Merchant merchant = merchants.create();
        String email = "person-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"owner\"}").send();
        assertThat(new DashboardClient(base()).always("X-Forwarded-For", setUpFrom)
                .acceptLink(created.json().get("sign_in_url").stringValue(), PASSWORD).status()).isEqualTo(302);
        return new Member(merchant, created.json().get("id").stringValue(), email);
    }

    private static int signIn(DashboardClient client, String email, String password) {
        return client.post("/dashboard/sign-in", Map.of("email", email, "password", password)).status();
    }

    private long audited(Member member, String action) {
        return jdbc.sql("select count(*) from dashboard_audit_log where merchant_id = ? and action = ?")
                .params(member.merchant().id(), action).query(Long.class).single();
    }

    @Test
    void tenFailuresOfOneAccountSentToTwoInstancesInTurnRefuseItsRightPasswordOnBoth() {
        Member member = member("192.0.2.10");
        for (int i = 0; i < 10; i++) {
            // Each from another address, so that only the account's limit can be the one reached.
            assertThat(signIn(browser(i, "198.51.100." + (10 + i)), member.email(), "wrong password " + i))
                    .as("failure " + (i + 1)).isEqualTo(401);
        }
        assertThat(signIn(browser(0, "198.51.100.50"), member.email(), PASSWORD)).isEqualTo(429);
        assertThat(signIn(browser(1, "198.51.100.51"), member.email(), PASSWORD)).isEqualTo(429);
        assertThat(audited(member, "sign_in.failed")).isEqualTo(10);
        assertThat(audited(member, "sign_in.throttled")).as("once per address").isEqualTo(2);
    }

    @Test
    void anIpv6ClientIsCountedByItsSlash64OnBothInstancesAndAnIpv4ClientByItsWholeAddress() {
        Member member = member("192.0.2.11");
        for (int i = 0; i < 20; i++) {
            String address = "2001:db8:1:2::" + Integer.toHexString(i + 1);
            assertThat(signIn(browser(i, address), "guess-" + i + "@example.com", "wrong password " + i))
                    .as(address).isEqualTo(401);
        }
        // Other addresses of that /64, on either instance, are that client: refused, the right password too.
        assertThat(signIn(browser(0, "2001:db8:1:2:ffff:ffff:ffff:fffe"), member.email(), PASSWORD)).isEqualTo(429);
        assertThat(signIn(browser(1, "2001:db8:1:2::ffff"), member.email(), PASSWORD)).isEqualTo(429);
        // The next /64 is someone else.
        assertThat(signIn(browser(1, "2001:db8:1:3::1"), member.email(), PASSWORD)).isEqualTo(302);

        for (int i = 0; i < 20; i++) {
            assertThat(signIn(browser(i, "198.51.100.77"), "guess-v4-" + i + "@example.com", "wrong " + i))
                    .isEqualTo(401);
        }
        assertThat(signIn(browser(0, "198.51.100.77"), member.email(), PASSWORD)).isEqualTo(429);
        assertThat(signIn(browser(1, "198.51.100.77"), member.email(), PASSWORD)).isEqualTo(429);
        assertThat(signIn(browser(1, "198.51.100.78"), member.email(), PASSWORD)).as("the next IPv4 address")
                .isEqualTo(302);
    }

    /**
     * Thirty wrong passwords for one account sent at once, half to each instance, from three addresses: ten are
     * checked (401) and twenty refused (429), because an attempt takes its token before the password is checked; and
     * the refusals are one audit row per address however many there were, whichever instance answered them.
     */
    @Test
    void guessesSentAtOnceToBothInstancesGetTenPasswordChecksAndOneRefusalRowPerAddress() throws Exception {
        Member member = member("192.0.2.12");
        List<DashboardClient> guessers = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            addresses.add("203.0.113." + (1 + i % 3));
            guessers.add(browser(i, addresses.getLast()));
        }
        long[][] inFlight = new long[guessers.size()][2];
        List<Integer> statuses = AtOnce.send(guessers.size(), i -> {
            inFlight[i][0] = System.nanoTime();
            int status = signIn(guessers.get(i), member.email(), "wrong password " + i);
            inFlight[i][1] = System.nanoTime();
            return status;
        });
        // The race was run: requests were in flight together (one started before another had its answer).
        int mostAtOnce = 0;
        for (long[] one : inFlight) {
            mostAtOnce = Math.max(mostAtOnce, (int) Arrays.stream(inFlight)
                    .filter(other -> other[0] <= one[0] && one[0] < other[1]).count());
        }
        assertThat(mostAtOnce).as("guesses in flight at one instant").isGreaterThan(1);
        Set<String> refusedAddresses = new TreeSet<>();
        for (int i = 0; i < statuses.size(); i++) {
            if (statuses.get(i) == 429) {
                refusedAddresses.add(addresses.get(i));
            }
        }
        assertThat(statuses).as("password checks").filteredOn(s -> s == 401).hasSize(10);
        assertThat(statuses).as("refusals").filteredOn(s -> s == 429).hasSize(20);
        assertThat(signIn(browser(0, "203.0.113.50"), member.email(), PASSWORD)).isEqualTo(429);
        assertThat(signIn(browser(1, "203.0.113.50"), member.email(), PASSWORD)).isEqualTo(429);

        assertThat(audited(member, "sign_in.failed")).isEqualTo(10);
        assertThat(audited(member, "sign_in.throttled")).as("one per address refused: " + refusedAddresses)
                .isEqualTo(refusedAddresses.size() + 1);
    }
}
