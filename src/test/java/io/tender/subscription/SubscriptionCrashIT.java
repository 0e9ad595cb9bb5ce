package io.tender.subscription;

import io.tender.payment.LiveCrashes;
import io.tender.support.Api;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service, in live mode against a slow processor simulator, is killed with SIGKILL in the middle of a
 * run of due subscription charges, then started again on the same data. The kill lands while charges are in flight:
 * the API shows charges pending just before it, and afterwards charges created before the kill that were finished
 * after it, by the restarted service's recovery. Every due period is then paid (none lost), by exactly one payment,
 * and the processor holds exactly one approved charge per period: a charge whose answer the kill lost was asked
 * after, one that never arrived was sent again under a fresh key, none was sent twice.
 */
class SubscriptionCrashIT {

    private static final String KEY = "sk_live_" + "5ub5c".repeat(5);
    private static final int SUBSCRIPTIONS = 24;

    @Test
    void aServiceKilledMidScheduleChargesEveryDuePeriodOnceAfterItsRestart() throws Exception {
        String[] quiet = Stream.concat(Stream.of(LiveCrashes.ARGUMENTS),
                Stream.of("--tender.series.scheduler.enabled=false")).toArray(String[]::new);
        String[] scheduling = Stream.concat(Stream.of(LiveCrashes.ARGUMENTS), Stream.of(
                "--tender.series.scheduler.interval=PT0.2S", "--tender.series.scheduler.batch=8",
                "--tender.series.scheduler.concurrency=8")).toArray(String[]::new);
        LocalDate today = LocalDate.now(ZoneId.of("Africa/Johannesburg"));

        try (var stage = LiveCrashes.Stage.start("subscription", KEY, Duration.ofMillis(300))) {
            Api api = stage.api();
            List<JsonNode> subscriptions = new ArrayList<>();
            // The subscriptions are made while this instance's scheduler is off: each has its first period due now.
            try (var service = stage.service("service", quiet)) {
                for (int i = 0; i < SUBSCRIPTIONS; i++) {
                    subscriptions.add(subscription(api, today, 1000 + i));
                }
            }

            Instant killedAt;
            List<String> pendingAtKill = List.of();
            try (var service = stage.service("service-scheduling", scheduling)) {
                // Kill it the moment a charge is seen recorded and not yet answered (the simulator takes 0.3 s each).
                Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
                while (true) {
                    pendingAtKill = charges(api).stream().filter(c -> c.get("status").stringValue().equals("pending"))
                            .map(c -> c.get("id").stringValue()).toList();
                    if (!pendingAtKill.isEmpty()) {
                        break;
                    }
                    assertThat(Instant.now()).as("a charge in flight").isBefore(deadline);
                    Thread.sleep(20);
                }
                service.kill();
                killedAt = Instant.now();
            }
            List<String> inFlight = pendingAtKill;

            try (var restarted = stage.service("service-restarted", scheduling)) {
                Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
                List<JsonNode> charges = charges(api);
                while (charges.size() < SUBSCRIPTIONS || charges.stream()
                        .anyMatch(c -> !c.get("status").stringValue().equals("succeeded"))) {
                    assertThat(Instant.now()).as("every period charged after the restart: " + charges).isBefore(deadline);
                    Thread.sleep(300);
                    charges = charges(api);
                }

                // One payment per period, each succeeded; some were begun before the kill and finished after it.
                assertThat(charges).hasSize(SUBSCRIPTIONS);
                assertThat(charges).extracting(c -> c.get("subscription_id").stringValue()).doesNotHaveDuplicates()
                        .containsExactlyInAnyOrderElementsOf(subscriptions.stream()
                                .map(s -> s.get("id").stringValue()).toList());
                // In flight at the kill: created by the killed instance, finished by the restarted one's recovery
                // (nothing else moves a charging period's payment), read from the API, not assumed.
                List<JsonNode> finishedAfterTheKill = LiveCrashes.spanning(charges, killedAt);
                assertThat(finishedAfterTheKill).as("charges created before the kill and finished after it, of %s",
                        charges).isNotEmpty();
                assertThat(charges).filteredOn(c -> inFlight.contains(c.get("id").stringValue()))
                        .as("the charges seen pending just before the kill, now succeeded")
                        .hasSize(inFlight.size())
                        .allSatisfy(c -> assertThat(c.get("status").stringValue()).isEqualTo("succeeded"));
                for (JsonNode subscription : subscriptions) {
                    JsonNode after = api.get("/collect/subscriptions/" + subscription.get("id").stringValue()).send()
                            .json();
                    assertThat(after.get("status").stringValue()).isEqualTo("active");
                    assertThat(after.get("current_period").get("start").stringValue()).isEqualTo(today.toString());
                }
                // The processor approved exactly one charge per period, under the period's own keys.
                JsonNode ledger = stage.ledger();
                for (JsonNode subscription : subscriptions) {
                    String prefix = subscription.get("id").stringValue() + ":1:charge";
                    int approved = 0;
                    for (JsonNode entry : ledger) {
                        if (entry.get("operation_key").stringValue().startsWith(prefix)
                                && entry.get("result").stringValue().equals("approved")) {
                            approved++;
                        }
                    }
                    assertThat(approved).as("approved charges of %s at the processor", prefix).isEqualTo(1);
                }
            }
        }
    }

    /** A live subscription with its first period due today, its first payment paid through the checkout's API. */
    private static JsonNode subscription(Api api, LocalDate today, long amount) {
        var customer = api.post("/billing/customers", "{\"external_reference\":\"crash-" + amount
                + "\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}").send();
        assertThat(customer.status()).as(customer.text()).isEqualTo(201);
        var session = api.post("/collect/payment_sessions", "{\"type\":\"first_in_series\",\"amount\":" + amount
                + ",\"currency\":\"ZAR\",\"customer\":\"" + customer.json().get("id").stringValue() + "\",\"options\":"
                + "{\"subscription_options\":{\"interval\":\"monthly\",\"start_date\":\"" + today
                + "\",\"notice_days\":0}}}").send();
        assertThat(session.status()).as(session.text()).isEqualTo(201);
        JsonNode attempt = LiveCrashes.pay(api, session.json().get("checkout_session_id").stringValue(),
                "4242424242424242");
        assertThat(attempt.get("status").stringValue()).isEqualTo("succeeded");
        var paid = api.get("/collect/payment_sessions/" + session.json().get("id").stringValue()).send().json();
        return api.get("/collect/subscriptions/" + paid.get("subscription_id").stringValue()).send().json();
    }

    /** The payments that charged a subscription's period (its first payments are not among them). */
    private static List<JsonNode> charges(Api api) {
        List<JsonNode> charges = new ArrayList<>();
        try {
            api.get("/collect/payments?limit=100").send().json().get("data").forEach(p -> {
                if (p.has("subscription_id")) {
                    charges.add(p);
                }
            });
        } catch (RuntimeException down) {
            // the service is starting or gone
        }
        return charges;
    }
}
