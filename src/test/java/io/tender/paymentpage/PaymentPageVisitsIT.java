package io.tender.paymentpage;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.AtOnce;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.tender.support.ProblemAssertions.assertBadRequest;
import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decisions §7 "Payment page" from the payer's side, over real HTTP: a form-posting client opens {@code page_url},
 * posts its form, follows the redirect to the checkout and pays there; the merchant then finds each attempt in the
 * page's transactions and its {@code payment_page.payment_received} event. Closed, deleted and forged visits open
 * nothing; many payers at once never mix up their payments.
 */
class PaymentPageVisitsIT extends ApiIntegrationTest {

    private static final String PAGES = "/collect/payment_pages";

    @Autowired
    private Checkout checkout;

    private Api api;
    private Pages pages;

    @BeforeEach
    void merchant() {
        api = merchants.create().test();
        pages = new Pages(api, anonymous(), checkout);
    }

    private static Map<String, String> fields(Map<String, String> first, Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(first);
        all.putAll(more);
        return all;
    }

    private JsonNode transactions(JsonNode page, String query) {
        return pages.get(PAGES + "/" + page.get("id").stringValue() + "/transactions" + query);
    }

    private List<JsonNode> payments() {
        List<JsonNode> list = new ArrayList<>();
        pages.get("/collect/payments?limit=100").get("data").forEach(list::add);
        return list;
    }

    @Test
    void twoPayersChoosingDifferentAmountsAreTwoTransactionsWithWhatEachEntered() {
        JsonNode page = pages.variable("Park clean-up", """
                "requires_delivery_details": true, "metadata": {"campaign": "spring"},
                "custom_fields": [{"key": "team", "label": "Team", "type": "dropdown", "options": ["North", "South"],
                  "required": true}, {"key": "note", "label": "Note", "type": "text"}]""");
        Map<String, String> address = Map.of("line1", "1 Main Road", "city", "Cape Town", "country", "South Africa",
                "pin", "8001");

        Pages.Form formA = pages.open(page);
        String checkoutA = Pages.checkoutId(pages.post(formA, fields(fields(Pages.payer("Ada Lovelace"), address),
                Map.of("amount", "5000", "field_team", "North", "field_note", "Bring a rake"))));
        Checkout.Attempt paidA = pages.payByCard(checkoutA, "4242424242424242");
        Pages.Form formB = pages.open(page);
        String checkoutB = Pages.checkoutId(pages.post(formB, fields(fields(Pages.payer("Grace Hopper"), address),
                Map.of("amount", "other", "other_amount", "123.45", "field_team", "South", "line2", "Flat 2"))));
        Checkout.Attempt paidB = pages.payByCard(checkoutB, "4242424242424242");
        assertThat(List.of(paidA.status(), paidB.status())).containsOnly("succeeded");

        var listed = api.get(PAGES + "/" + page.get("id").stringValue() + "/transactions").send();
        JsonNode list = Pages.expect(200, listed);
        assertThat(list.get("data")).hasSize(2);
        JsonNode b = list.get("data").get(0);
        JsonNode a = list.get("data").get(1);
        assertThat(a.get("id").stringValue()).matches("^pt_[a-f0-9]{24}$");
        assertThat(a.get("payment_page_id")).isEqualTo(page.get("id"));
        assertThat(a.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(a.get("amount").longValue()).isEqualTo(5000);
        assertThat(a.get("currency").stringValue()).isEqualTo("ZAR");
        assertThat(a.get("customer")).isEqualTo(Api.JSON.readTree(
                "{\"name\":\"Ada Lovelace\",\"email\":\"ada.lovelace@example.com\",\"phone\":\"0821234567\"}"));
        assertThat(a.get("custom_fields")).isEqualTo(Api.JSON.readTree("{\"team\":\"North\",\"note\":\"Bring a rake\"}"));
        assertThat(a.get("delivery_address")).isEqualTo(Api.JSON.readTree(
                "{\"line1\":\"1 Main Road\",\"city\":\"Cape Town\",\"country\":\"South Africa\",\"pin\":\"8001\"}"));
        assertThat(a.get("payment_id").stringValue()).isEqualTo(paidA.paymentId());
        assertThat(a.get("checkout_session_id").stringValue()).isEqualTo(checkoutA);
        assertThat(a.get("metadata")).isEqualTo(Api.JSON.readTree("{\"campaign\":\"spring\"}"));
        assertThat(a.get("mode").stringValue()).isEqualTo("test");
        assertThat(b.get("amount").longValue()).isEqualTo(12345);
        assertThat(b.get("customer").get("name").stringValue()).isEqualTo("Grace Hopper");
        assertThat(b.get("custom_fields")).isEqualTo(Api.JSON.readTree("{\"team\":\"South\"}"));
        assertThat(b.get("delivery_address").get("line2").stringValue()).isEqualTo("Flat 2");
        assertThat(b.get("payment_id").stringValue()).isEqualTo(paidB.paymentId());
        assertThat(list.get("has_more").booleanValue()).isFalse();
        assertThat(list.get("prev_cursor").isNull()).isTrue();
        assertThat(listed.header("Prev-Cursor")).isNull();

        JsonNode paymentA = pages.get("/collect/payments/" + paidA.paymentId());
        assertThat(paymentA.get("amount").longValue()).isEqualTo(5000);
        assertThat(paymentA.get("status").stringValue()).isEqualTo("succeeded");
        JsonNode sessionB = pages.get("/collect/payment_sessions/" + b.get("payment_session_id").stringValue());
        assertThat(sessionB.get("amount").longValue()).isEqualTo(12345);
        assertThat(sessionB.get("checkout_session_id").stringValue()).isEqualTo(checkoutB);
        assertThat(sessionB.get("status").stringValue()).isEqualTo("completed");

        JsonNode events = pages.get("/events?type=payment_page.payment_received").get("data");
        assertThat(events).hasSize(2);
        JsonNode eventA = events.get(1).get("data");
        assertThat(eventA.get("id")).isEqualTo(a.get("id"));
        assertThat(eventA.get("customer")).isEqualTo(a.get("customer"));
        assertThat(eventA.get("payment")).isEqualTo(paymentA);
        assertThat(events.get(0).get("data").get("payment").get("id").stringValue()).isEqualTo(paidB.paymentId());
    }

    @Test
    void aDeclinedAttemptIsAFailedTransactionAndTheRetryOnTheSameVisitAnother() {
        JsonNode page = pages.create("\"title\":\"Ticket\",\"currency\":\"ZAR\",\"amount\":15000,"
                + "\"requires_customer_details\":false");
        // A fixed page takes its own amount, whatever is posted.
        String ckt = Pages.checkoutId(pages.post(pages.open(page), Map.of("amount", "1", "other_amount", "0.01")));
        Checkout.Attempt declined = pages.payByCard(ckt, "4000000000000002");
        Checkout.Attempt paid = pages.payByCard(ckt, "5555555555554444");

        JsonNode data = transactions(page, "").get("data");
        assertThat(data).hasSize(2);
        assertThat(data.get(1).get("status").stringValue()).isEqualTo("failed");
        assertThat(data.get(1).get("payment_id").stringValue()).isEqualTo(declined.paymentId());
        assertThat(data.get(0).get("status").stringValue()).isEqualTo("succeeded");
        assertThat(data.get(0).get("payment_id").stringValue()).isEqualTo(paid.paymentId());
        assertThat(data.get(0).get("payment_session_id")).isEqualTo(data.get(1).get("payment_session_id"));
        for (JsonNode t : data) {
            assertThat(t.get("amount").longValue()).isEqualTo(15000);
            assertThat(t.has("customer")).as("not asked, not shown").isFalse();
            assertThat(t.has("delivery_address")).isFalse();
            assertThat(t.get("custom_fields")).isEmpty();
        }
        assertThat(transactions(page, "?status=failed").get("data")).hasSize(1);
        JsonNode events = pages.get("/events?type=payment_page.payment_received").get("data");
        assertThat(events).as("only a received payment is an event").hasSize(1);
        assertThat(events.get(0).get("data").get("payment_id").stringValue()).isEqualTo(paid.paymentId());
    }

    @Test
    void aTransactionShowsWhatRefundsOfItsPaymentGaveBack() {
        JsonNode page = pages.create("\"title\":\"Ticket\",\"currency\":\"ZAR\",\"amount\":15000,"
                + "\"requires_customer_details\":false");
        Checkout.Attempt paid = pages.payByCard(Pages.checkoutId(pages.post(pages.open(page), Map.of())),
                "4242424242424242");
        assertThat(transactions(page, "").get("data").get(0).get("refunded_amount").longValue()).isZero();

        Pages.expect(201, api.post("/collect/payments/" + paid.paymentId() + "/refunds", "{\"amount\":4000}").send());

        JsonNode transaction = transactions(page, "").get("data").get(0);
        assertThat(transaction.get("payment_id").stringValue()).isEqualTo(paid.paymentId());
        assertThat(transaction.get("refunded_amount").longValue()).isEqualTo(4000);
    }

    @Test
    void thePageLooksLikeTheCheckoutAndTheCheckoutLeadsBackToIt() {
        JsonNode page = pages.variable("School trip", "\"description\":\"Grade 7, March\",\"return_url\":"
                + "\"https://school.example/trips\"");
        var shown = anonymous().get(Pages.path(page)).send();

        assertThat(shown.status()).isEqualTo(200);
        assertThat(shown.contentType()).startsWith("text/html");
        assertThat(shown.header("Cache-Control")).isEqualTo("no-store");
        assertThat(shown.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(shown.header("Content-Security-Policy")).contains("default-src 'none'", "form-action 'self'",
                "frame-ancestors 'none'").doesNotContain("unsafe-inline");
        String html = shown.text();
        assertThat(html).contains("School trip", "Grade 7, March", "Test mode", "ZAR 50.00", "ZAR 100.00",
                "Other amount", "From ZAR 10.00 to ZAR 1000.00", "<label for=\"name\">Full name</label>",
                "<label for=\"email\">Email</label>", "<label for=\"phone\">Phone</label>", "Continue to payment",
                "href=\"https://school.example/trips\"");
        assertThat(html).doesNotContainPattern("(src|href)=\"(https?:)?//(?!school\\.example)")
                .doesNotContain("<style").doesNotContain("style=\"").doesNotContain("sk_test");

        String ckt = Pages.checkoutId(pages.post(pages.open(page), fields(Pages.payer("Ada"), Map.of("amount", "10000"))));
        String checkoutPage = anonymous().get("/checkout/" + ckt).send().text();
        assertThat(checkoutPage).contains("School trip", "Pay ZAR 100.00", "Back to School trip",
                "href=\"" + page.get("page_url").stringValue() + "\"").doesNotContain("Cancel payment");

        JsonNode fixed = pages.create("\"title\":\"Entry\",\"currency\":\"ZAR\",\"amount\":15000,"
                + "\"requires_customer_details\":false,\"requires_delivery_details\":true");
        String fixedHtml = anonymous().get(Pages.path(fixed)).send().text();
        assertThat(fixedHtml).contains("ZAR 150.00", "Street address", "Postal code").doesNotContain("Full name",
                "Other amount");
    }

    @Test
    void theFormShowsItsMistakesWhatWasTypedAndStoresNothing() {
        JsonNode page = pages.variable("Book club", "\"custom_fields\":[{\"key\":\"book\",\"label\":\"Book\","
                + "\"type\":\"dropdown\",\"options\":[\"Dune\",\"Emma\"],\"required\":true}]");
        Pages.Form form = pages.open(page);

        var wrong = pages.post(form, Map.of("name", "", "email", "not-an-email", "phone", "12",
                "amount", "other", "other_amount", "5000.00", "field_book", "Ulysses"));
        assertThat(wrong.status()).isEqualTo(422);
        assertThat(wrong.text()).contains("Check the details below", "Enter your full name.",
                "Enter an email address such as name@example.com.", "Enter a phone number",
                "Enter an amount from ZAR 10.00 to ZAR 1000.00.", "Choose one of the options.",
                "value=\"not-an-email\"", "value=\"5000.00\"", "aria-invalid=\"true\"");
        var noAmount = pages.post(form, fields(Pages.payer("Ada"), Map.of("field_book", "Dune")));
        assertThat(noAmount.status()).isEqualTo(422);
        assertThat(noAmount.text()).contains("Choose an amount, or enter another amount.");
        var notAPreset = pages.post(form, fields(Pages.payer("Ada"), Map.of("amount", "777", "field_book", "Dune")));
        assertThat(notAPreset.text()).contains("Choose one of the amounts, or enter another amount.");
        var control = pages.post(form, fields(Pages.payer("Ada\u0000"), Map.of("amount", "5000", "field_book", "Dune")));
        assertThat(control.status()).isEqualTo(422);
        assertThat(control.text()).contains("Use letters, digits and punctuation only.");
        assertThat(payments()).as("nothing was opened").isEmpty();
        assertThat(transactions(page, "").get("data")).isEmpty();

        var right = pages.post(form, fields(Pages.payer("Ada"), Map.of("amount", "other", "other_amount", "20",
                "field_book", "Dune")));
        String ckt = Pages.checkoutId(right);
        assertThat(anonymous().get("/checkout/" + ckt).send().text()).contains("Pay ZAR 20.00");
    }

    @Test
    void theSameFormPostedTwiceOpensOneSession() {
        JsonNode page = pages.variable("Tips", "\"requires_customer_details\":false");
        Pages.Form form = pages.open(page);
        var first = pages.post(form, Map.of("amount", "5000"));
        var second = pages.post(form, Map.of("amount", "5000"));
        assertThat(Pages.checkoutId(second)).isEqualTo(Pages.checkoutId(first));
        String other = Pages.checkoutId(pages.post(pages.open(page), Map.of("amount", "5000")));
        assertThat(other).as("a new visit of the page is a new session").isNotEqualTo(Pages.checkoutId(first));
    }

    @Test
    void aPostFromAnotherSiteOrWithoutThePagesTokenOpensNothing() {
        JsonNode page = pages.variable("Tips", "\"requires_customer_details\":false");
        JsonNode otherPage = pages.variable("Other", "\"requires_customer_details\":false");
        Pages.Form form = pages.open(page);
        Map<String, String> fields = Map.of("amount", "5000");

        var missing = anonymous().post(form.path(), "amount=5000").contentType("application/x-www-form-urlencoded").send();
        assertThat(missing.status()).isEqualTo(403);
        assertThat(missing.text()).contains("This page is out of date");
        assertThat(pages.post(new Pages.Form(form.path(), form.token() + "x", null), fields).status()).isEqualTo(403);
        Pages.Form foreign = pages.open(otherPage);
        assertThat(pages.post(new Pages.Form(form.path(), foreign.token(), null), fields).status()).isEqualTo(403);
        var crossSite = anonymous().post(form.path(), "_csrf=" + form.token() + "&amount=5000")
                .contentType("application/x-www-form-urlencoded").header("Sec-Fetch-Site", "cross-site").send();
        assertThat(crossSite.status()).isEqualTo(403);
        assertThat(payments()).isEmpty();

        Pages.checkoutId(pages.post(form, fields));
    }

    @Test
    void aPostFromAnotherOriginWithoutSecFetchSiteOpensNothingWhileThePagesOwnOriginDoes() {
        // An older browser sends Origin but no Sec-Fetch-Site: another site's page posting the form is refused.
        JsonNode page = pages.variable("Tips", "\"requires_customer_details\":false");
        Pages.Form form = pages.open(page);
        for (String origin : List.of("https://evil.example", "http://127.0.0.1:" + port)) {
            var crossSite = anonymous().post(form.path(), "_csrf=" + form.token() + "&amount=5000")
                    .contentType("application/x-www-form-urlencoded").header("Origin", origin).send();
            assertThat(crossSite.status()).as(origin).isEqualTo(403);
            assertThat(crossSite.text()).contains("This page is out of date");
        }
        assertThat(payments()).isEmpty();
        assertThat(jdbc.sql("select count(*) from payment_page_visits where payment_page_id = ?")
                .param(page.get("id").stringValue()).query(Long.class).single()).isZero();

        var sameOrigin = anonymous().post(form.path(), "_csrf=" + form.token() + "&amount=5000")
                .contentType("application/x-www-form-urlencoded").header("Origin", base()).send();
        assertThat(sameOrigin.status()).as(sameOrigin.toString()).isEqualTo(303);
    }

    @Test
    void anInactivePageSaysItIsClosedAndTakesNoVisit() {
        JsonNode page = pages.variable("Raffle", "\"return_url\":\"https://raffle.example\"");
        Pages.Form form = pages.open(page);
        Pages.expect(200, api.patch(PAGES + "/" + page.get("id").stringValue() + "/inactive", null).send());

        var shown = anonymous().get(Pages.path(page)).send();
        assertThat(shown.status()).isEqualTo(410);
        assertThat(shown.text()).contains("This page is closed", "Raffle", "Nothing was charged",
                "href=\"https://raffle.example\"").doesNotContain("Continue to payment", "_csrf");
        var posted = pages.post(form, fields(Pages.payer("Ada"), Map.of("amount", "5000")));
        assertThat(posted.status()).isEqualTo(410);
        assertThat(posted.text()).contains("This page is closed");
        assertThat(payments()).isEmpty();
        assertThat(transactions(page, "").get("data")).isEmpty();
    }

    @Test
    void aDeletedPageIs404WhileItsPaymentsAndOpenSessionsLiveOn() {
        JsonNode page = pages.variable("Bake sale", "\"requires_customer_details\":false");
        String paidCheckout = Pages.checkoutId(pages.post(pages.open(page), Map.of("amount", "5000")));
        Checkout.Attempt paid = pages.payByCard(paidCheckout, "4242424242424242");
        Pages.Form form = pages.open(page);
        String openCheckout = Pages.checkoutId(pages.post(pages.open(page), Map.of("amount", "10000")));

        assertThat(api.delete(PAGES + "/" + page.get("id").stringValue()).send().status()).isEqualTo(204);

        var gone = anonymous().get(Pages.path(page)).send();
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.text()).contains("This payment page does not exist");
        assertThat(pages.post(form, Map.of("amount", "5000")).status()).isEqualTo(404);
        assertProblem(api.get(PAGES + "/" + page.get("id").stringValue() + "/transactions").send(), 404,
                "resource_not_found");
        assertThat(pages.get("/collect/payments/" + paid.paymentId()).get("status").stringValue()).isEqualTo("succeeded");

        // A payer already at the checkout may finish; the checkout no longer links back to the page.
        String checkoutPage = anonymous().get("/checkout/" + openCheckout).send().text();
        assertThat(checkoutPage).contains("Bake sale", "Pay ZAR 100.00").doesNotContain("Back to Bake sale");
        Checkout.Attempt late = pages.payByCard(openCheckout, "4242424242424242");
        assertThat(pages.get("/collect/payments/" + late.paymentId()).get("amount").longValue()).isEqualTo(10000);
        assertThat(pages.get("/events?type=payment_page.payment_received").get("data")).hasSize(2);
    }

    @Test
    void anAccountPageAppliesEachPaymentAndShowsThePayerAnAmountItsRulesRefuse() {
        Pages.expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-levy\",\"name\":\"Ada\","
                + "\"email\":\"ada@example.com\"}").send());
        JsonNode account = Pages.expect(201, api.post("/billing/accounts", "{\"customer\":\"c-levy\","
                + "\"external_reference\":\"levy-7\",\"name\":\"Unit 7\",\"currency\":\"ZAR\",\"payment_rules\":"
                + "{\"overpayment_allowed\":true,\"underpayment_allowed\":true}}").send());
        JsonNode page = pages.variable("Levies", "\"account\":\"levy-7\",\"requires_customer_details\":false");

        String ckt = Pages.checkoutId(pages.post(pages.open(page), Map.of("amount", "5000")));
        Checkout.Attempt paid = pages.payByCard(ckt, "4242424242424242");
        assertThat(pages.get("/collect/payments/" + paid.paymentId()).get("obligation_id"))
                .isEqualTo(account.get("obligation_id"));

        Pages.expect(200, api.patch("/billing/accounts/levy-7", "{\"payment_rules\":{\"overpayment_allowed\":true,"
                + "\"underpayment_allowed\":true,\"min_amount\":20000}}").send());
        var refused = pages.post(pages.open(page), Map.of("amount", "10000"));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.text()).contains("This amount cannot be paid on this page right now.");
        assertThat(Pages.checkoutId(pages.post(pages.open(page), Map.of("amount", "other", "other_amount", "250"))))
                .isNotEqualTo(ckt);
        assertThat(transactions(page, "").get("data")).hasSize(1);
    }

    @Test
    void unknownPagesAreAPlainNotFoundPage() {
        for (String path : List.of("/pages/pp_0000000000000000deadbeef", "/pages/nothing", "/pages/ps_0000000000000000deadbeef")) {
            var page = anonymous().get(path).send();
            assertThat(page.status()).isEqualTo(404);
            assertThat(page.text()).contains("This payment page does not exist");
            assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        }
    }

    @Test
    void twentyPayersAtOnceMakeTwentyTransactionsEachWithTheirOwnAmountAndName() throws Exception {
        JsonNode page = pages.variable("Fundraiser", "");
        int payers = 20;
        List<Pages.Form> forms = new ArrayList<>();
        for (int i = 0; i < payers; i++) {
            forms.add(pages.open(page));
        }
        List<Api.Response> visits = AtOnce.send(payers, i -> pages.post(forms.get(i), fields(Pages.payer("Payer " + i),
                Map.of("amount", "other", "other_amount", (10 + i) + ".00"))));
        List<String> checkouts = visits.stream().map(Pages::checkoutId).toList();
        assertThat(new HashSet<>(checkouts)).hasSize(payers);

        List<Future<Checkout.Attempt>> attempts = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(payers)) {
            for (String ckt : checkouts) {
                attempts.add(threads.submit(() -> pages.payByCard(ckt, "4242424242424242")));
            }
        }
        Map<String, Long> amountByName = new HashMap<>();
        for (int i = 0; i < payers; i++) {
            amountByName.put("Payer " + i, (10L + i) * 100);
            assertThat(attempts.get(i).get().status()).isEqualTo("succeeded");
        }

        JsonNode data = transactions(page, "?limit=100").get("data");
        assertThat(data).hasSize(payers);
        Set<String> ids = new HashSet<>();
        Set<String> paymentIds = new HashSet<>();
        for (JsonNode t : data) {
            ids.add(t.get("id").stringValue());
            paymentIds.add(t.get("payment_id").stringValue());
            String name = t.get("customer").get("name").stringValue();
            assertThat(t.get("amount").longValue()).as(name + "'s amount").isEqualTo(amountByName.remove(name));
            JsonNode payment = pages.get("/collect/payments/" + t.get("payment_id").stringValue());
            assertThat(payment.get("amount")).isEqualTo(t.get("amount"));
            assertThat(payment.get("payment_session_id")).isEqualTo(t.get("payment_session_id"));
        }
        assertThat(amountByName).as("every payer once").isEmpty();
        assertThat(ids).hasSize(payers);
        assertThat(paymentIds).hasSize(payers);
    }

    @Test
    void theTransactionsPageBothWaysWithNextAndPrevCursors() {
        JsonNode page = pages.create("\"title\":\"T\",\"currency\":\"ZAR\",\"amount\":100,"
                + "\"requires_customer_details\":false");
        String ckt = Pages.checkoutId(pages.post(pages.open(page), Map.of()));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pages.payByCard(ckt, "4000000000000002");
        }
        transactions(page, "?limit=100").get("data").forEach(t -> ids.add(t.get("id").stringValue()));
        assertThat(ids).hasSize(5);
        String path = PAGES + "/" + page.get("id").stringValue() + "/transactions";

        var first = api.get(path + "?limit=2").send();
        assertThat(Pages.expect(200, first).get("data").findValuesAsString("id")).containsExactly(ids.get(0), ids.get(1));
        assertThat(first.header("Next-Cursor")).isEqualTo(ids.get(1));
        assertThat(first.header("Prev-Cursor")).isNull();
        var second = api.get(path + "?limit=2&cursor=" + ids.get(1)).send();
        JsonNode secondPage = Pages.expect(200, second);
        assertThat(secondPage.get("data").findValuesAsString("id")).containsExactly(ids.get(2), ids.get(3));
        assertThat(secondPage.get("prev_cursor").stringValue()).isEqualTo("prev_" + ids.get(2));
        assertThat(second.header("Prev-Cursor")).isEqualTo("prev_" + ids.get(2));
        assertThat(second.header("Next-Cursor")).isEqualTo(ids.get(3));
        JsonNode back = pages.get(path + "?limit=2&cursor=prev_" + ids.get(2));
        assertThat(back.get("data").findValuesAsString("id")).containsExactly(ids.get(0), ids.get(1));
        assertThat(back.get("prev_cursor").isNull()).as("the newest page").isTrue();
        assertThat(back.get("next_cursor").stringValue()).isEqualTo(ids.get(1));
        JsonNode last = pages.get(path + "?limit=2&cursor=" + ids.get(3));
        assertThat(last.get("data").findValuesAsString("id")).containsExactly(ids.get(4));
        assertThat(last.get("has_more").booleanValue()).isFalse();
        assertThat(last.get("prev_cursor").stringValue()).isEqualTo("prev_" + ids.get(4));
        JsonNode middle = pages.get(path + "?limit=2&cursor=prev_" + ids.get(4));
        assertThat(middle.get("data").findValuesAsString("id")).containsExactly(ids.get(2), ids.get(3));

        assertThat(transactions(page, "?status=succeeded").get("data")).isEmpty();
        assertBadRequest(api.get(path + "?cursor=pay_0000000000000000deadbeef").send(), "cursor");
        assertBadRequest(api.get(path + "?status=pending").send(), "status");
        assertBadRequest(api.get(path + "?limit=0").send(), "limit");
    }
}
