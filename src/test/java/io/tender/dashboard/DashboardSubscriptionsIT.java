package io.tender.dashboard;

import io.tender.checkout.Checkout;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's subscriptions and mandates (decisions §11), over real HTTP against a subscription really paid in the
 * sandbox: the lists show the merchant's own of the mode; each page shows its terms, periods and payments and its
 * coming dates (the API's schedule); cancelling goes through a confirmation that says what happens, then the API's
 * own cancel under the form's key, so sent twice it cancels once with one audit row; the API then shows it cancelled;
 * another merchant's id is a 404 page and a viewer sees no cancel and is refused 403.
 */
class DashboardSubscriptionsIT extends ApiIntegrationTest {

    @Autowired
    private Checkout checkout;

    private Merchant merchant;
    private CollectFixtures test;
    private DashboardClient developer;

    @BeforeEach
    void merchantWithADeveloper() {
        merchant = merchants.create();
        test = new CollectFixtures(merchant.test(), checkout);
        developer = DashboardClient.member(base(), merchants, merchant, "developer", "127.0.0.82");
    }

    @Test
    void cancellingASubscriptionThroughItsConfirmationCancelsItOnceWithOneAuditRow() {
        String customer = test.customer("grace@example.com");
        JsonNode subscription = test.subscription(customer);
        String id = subscription.get("id").stringValue();
        String mandate = subscription.get("mandate_id").stringValue();

        var list = developer.get("/dashboard/test/subscriptions");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains(id, "ZAR 99.00 every month", "grace@example.com", "active");
        var page = developer.get("/dashboard/test/subscriptions/" + id);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("ZAR 99.00 every month", "Coming charges", "Periods", "Agreed terms",
                "href=\"/dashboard/test/payments/" + subscription.get("first_payment_id").stringValue() + "\"",
                "href=\"/dashboard/test/subscriptions/mandates/" + mandate + "\"", "scheduled")
                .as("the first payment among its payments").doesNotContain("No payment yet.");
        JsonNode schedule = test.get("/collect/mandates/" + mandate + "/schedule?count=1");
        assertThat(page.body()).as("the first coming date, as the API's schedule says")
                .contains(SubscriptionsController.day(java.time.LocalDate.parse(
                        schedule.get("data").get(0).get("date").stringValue())));

        String action = "/dashboard/test/subscriptions/" + id + "/cancel";
        String key = CollectFixtures.formField(page.body(), action, "idempotency_key");
        assertThat(key).as("a cancel form with its key").isNotNull();
        var confirm = developer.post(action, Map.of("idempotency_key", key));
        assertThat(confirm.status()).isEqualTo(200);
        assertThat(confirm.body()).contains("Cancel the subscription of ZAR 99.00 every month?",
                "Nothing more is charged", "Its mandate " + mandate + " is cancelled too",
                "name=\"confirmed\" value=\"yes\"");
        assertThat(test.get("/collect/subscriptions/" + id).get("status").stringValue())
                .as("nothing before the confirmation").isEqualTo("active");

        for (int i = 0; i < 2; i++) {
            var done = developer.post(action, Map.of("idempotency_key", key, "confirmed", "yes"));
            assertThat(done.status()).as("send " + (i + 1)).isEqualTo(303);
            assertThat(done.location()).endsWith("/dashboard/test/subscriptions/" + id + "?done=cancelled");
        }
        assertThat(test.get("/collect/subscriptions/" + id).get("status").stringValue()).isEqualTo("cancelled");
        assertThat(test.get("/collect/mandates/" + mandate).get("status").stringValue()).isEqualTo("cancelled");
        assertThat(audited("subscription.cancelled", id)).isEqualTo(1);
        assertThat(jdbc.sql("select (before_state ->> 'status') || '>' || (after_state ->> 'status') from "
                + "dashboard_audit_log where action = 'subscription.cancelled' and target = ?").param(id)
                .query(String.class).single()).isEqualTo("active>cancelled");
        var after = developer.get("/dashboard/test/subscriptions/" + id + "?done=cancelled");
        assertThat(after.body()).contains("The subscription is cancelled", "cancelled", "None: nothing more is scheduled.")
                .doesNotContain(action + "\"");
        assertThat(developer.get("/dashboard/test/subscriptions?status=cancelled").body()).contains(id);
        assertThat(developer.get("/dashboard/test/subscriptions?status=active").body()).doesNotContain(id);

        // A new key on an ended subscription meets the API's refusal, in its words; nothing more is written.
        var again = developer.post(action, Map.of("idempotency_key", UUID.randomUUID().toString(), "confirmed", "yes"));
        ApiRefusals.assertShowsTheApisRefusal(again,
                merchant.test().post("/collect/subscriptions/" + id + "/cancel", "{}").send());
        assertThat(again.status()).isEqualTo(409);
        assertThat(audited("subscription.cancelled", id)).isEqualTo(1);
    }

    @Test
    void cancellingAMandateCancelsItsSubscriptionOnce() {
        JsonNode subscription = test.subscription(test.customer("ada@example.com"));
        String mandate = subscription.get("mandate_id").stringValue();

        var list = developer.get("/dashboard/test/subscriptions/mandates");
        assertThat(list.body()).contains(mandate, "ZAR 99.00", "scheduled", "ada@example.com");
        var page = developer.get("/dashboard/test/subscriptions/mandates/" + mandate);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("You allow " + merchant.name() + " to charge this card ZAR 99.00",
                "Coming charges", "href=\"/dashboard/test/subscriptions/" + subscription.get("id").stringValue() + "\"");
        String action = "/dashboard/test/subscriptions/mandates/" + mandate + "/cancel";
        String key = CollectFixtures.formField(page.body(), action, "idempotency_key");
        var confirm = developer.post(action, Map.of("idempotency_key", key));
        assertThat(confirm.body()).contains("Cancel the mandate of ada@example.com?",
                "Its subscription " + subscription.get("id").stringValue() + " is cancelled too");
        for (int i = 0; i < 2; i++) {
            assertThat(developer.post(action, Map.of("idempotency_key", key, "confirmed", "yes")).status())
                    .isEqualTo(303);
        }
        assertThat(test.get("/collect/mandates/" + mandate).get("status").stringValue()).isEqualTo("cancelled");
        assertThat(test.get("/collect/subscriptions/" + subscription.get("id").stringValue()).get("status")
                .stringValue()).isEqualTo("cancelled");
        assertThat(audited("mandate.cancelled", mandate)).isEqualTo(1);
    }

    @Test
    void anotherMerchantsOrModesSubscriptionIsNotFoundAndAViewerCannotCancel() {
        JsonNode subscription = test.subscription(test.customer("grace@example.com"));
        String id = subscription.get("id").stringValue();
        String mandate = subscription.get("mandate_id").stringValue();

        DashboardClient stranger = DashboardClient.member(base(), merchants, merchants.create(), "owner", "127.0.0.82");
        assertThat(stranger.get("/dashboard/test/subscriptions").body()).doesNotContain(id);
        assertThat(stranger.get("/dashboard/test/subscriptions/mandates").body()).doesNotContain(mandate);
        for (String path : new String[]{"/dashboard/test/subscriptions/" + id,
                "/dashboard/test/subscriptions/mandates/" + mandate}) {
            var missing = stranger.get(path);
            assertThat(missing.status()).as(path).isEqualTo(404);
            assertThat(missing.body()).contains("not found").doesNotContain("grace@example.com", "ZAR 99.00");
        }
        assertThat(stranger.post("/dashboard/test/subscriptions/" + id + "/cancel", Map.of("idempotency_key",
                UUID.randomUUID().toString(), "confirmed", "yes")).status()).isEqualTo(404);
        assertThat(developer.get("/dashboard/live/subscriptions/" + id).status()).isEqualTo(404);
        assertThat(developer.get("/dashboard/live/subscriptions").body()).doesNotContain(id);

        DashboardClient viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.82");
        var page = viewer.get("/dashboard/test/subscriptions/" + id);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("ZAR 99.00 every month").doesNotContain("/cancel\"", "idempotency_key");
        assertThat(viewer.get("/dashboard/test/subscriptions/mandates/" + mandate).body())
                .doesNotContain("/cancel\"");
        for (String path : new String[]{"/dashboard/test/subscriptions/" + id + "/cancel",
                "/dashboard/test/subscriptions/mandates/" + mandate + "/cancel"}) {
            assertThat(viewer.post(path, Map.of("idempotency_key", UUID.randomUUID().toString(), "confirmed", "yes"))
                    .status()).as(path).isEqualTo(403);
        }
        assertThat(test.get("/collect/subscriptions/" + id).get("status").stringValue()).isEqualTo("active");
        assertThat(audited("subscription.cancelled", id) + audited("mandate.cancelled", mandate)).isZero();
    }

    private long audited(String action, String target) {
        return jdbc.sql("select count(*) from dashboard_audit_log where action = ? and target = ?")
                .params(action, target).query(Long.class).single();
    }
}
