package io.tender.dashboard;

import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.PaymentRows;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's Payments pages over real HTTP (decisions §11): the list filtered and searched as a person types it,
 * a page at a time; a filter that cannot match answered 400 with the field named beside it and no rows; the CSV
 * export of the whole filtered set, not the page shown; a payment's page with its timeline; and nothing of another
 * merchant or of the other mode on any of them.
 */
class DashboardPaymentsIT extends ApiIntegrationTest {

    private static final Pattern PAYMENT_LINKS = Pattern.compile("href=\"/dashboard/test/payments/(pay_[A-Za-z0-9]+)\"");

    private PaymentRows rows;
    private Merchant merchant;
    private DashboardClient viewer;

    @BeforeEach
    void merchantWithAViewer() {
        rows = new PaymentRows(jdbc);
        merchant = merchants.create();
        viewer = DashboardClient.member(base(), merchants, merchant, "viewer", "127.0.0.61");
    }

    private String payment(Instant at, String last4, String reference) {
        return rows.payment(merchant.id(), Mode.TEST, at, p -> {
            p.put("details", PaymentRows.card("visa", last4));
            p.put("externalReference", reference);
        });
    }

    private static List<String> listed(String body) {
        List<String> ids = new ArrayList<>();
        Matcher m = PAYMENT_LINKS.matcher(body);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    @Test
    void theListFindsAPaymentByItsCardsLastFourDigitsAndNothingOfAnotherMerchantOrMode() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String wanted = payment(now.minusSeconds(60), "4242", "order-7");
        payment(now.minusSeconds(30), "1881", "order-8");
        rows.payment(merchant.id(), Mode.LIVE, now, p -> p.put("details", PaymentRows.card("visa", "4242")));
        Merchant other = merchants.create();
        rows.payment(other.id(), Mode.TEST, now, p -> p.put("details", PaymentRows.card("visa", "4242")));

        var all = viewer.get("/dashboard/test/payments");
        assertThat(all.status()).isEqualTo(200);
        assertThat(listed(all.body())).hasSize(2);

        var found = viewer.get("/dashboard/test/payments?last4=4242");
        assertThat(found.status()).isEqualTo(200);
        assertThat(listed(found.body())).containsExactly(wanted);
        assertThat(found.body()).contains("Visa ···· 4242").contains("order-7").contains("ZAR 100.00");
        assertThat(found.body()).as("the form shows the filter as typed").contains("value=\"4242\"");

        assertThat(listed(viewer.get("/dashboard/test/payments?external_reference=order-8").body())).hasSize(1)
                .doesNotContain(wanted);
        assertThat(listed(viewer.get("/dashboard/test/payments?id=" + wanted).body())).containsExactly(wanted);
        assertThat(viewer.get("/dashboard/live/payments?last4=4242").body())
                .as("the live list is the live payments").contains("/dashboard/live/payments/pay_")
                .doesNotContain(wanted);
    }

    @Test
    void aFilterThatCannotMatchIsA400NamingTheFieldWithNoRows() {
        payment(Instant.now(), "4242", null);

        var refused = viewer.get("/dashboard/test/payments?last4=42&created_from=2026-02-30");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("must be the last 4 digits of a card")
                .contains("id=\"f-last4-error\"").contains("id=\"f-from-error\"")
                .contains("aria-invalid=\"true\"");
        assertThat(listed(refused.body())).isEmpty();
        assertThat(refused.body()).as("as typed, to correct").contains("value=\"42\"");
    }

    @Test
    void pagesFollowOneAnotherAndTheCsvExportHoldsTheWholeFilteredSet() throws Exception {
        Instant start = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        List<String> cards = new ArrayList<>();
        for (int i = 0; i < PaymentsController.PAGE_SIZE + 5; i++) {
            cards.add(payment(start.plusSeconds(i), "4242", "=HYPERLINK(\"x\")"));
        }
        payment(start.plusSeconds(100), "1881", null);

        var first = viewer.get("/dashboard/test/payments?last4=4242");
        List<String> seen = new ArrayList<>(listed(first.body()));
        assertThat(seen).hasSize(PaymentsController.PAGE_SIZE);
        Matcher next = Pattern.compile("href=\"([^\"]+)\" rel=\"next\"").matcher(first.body());
        assertThat(next.find()).as("a next page").isTrue();
        var second = viewer.get(next.group(1).replace("&amp;", "&"));
        assertThat(second.status()).isEqualTo(200);
        seen.addAll(listed(second.body()));
        assertThat(seen).containsExactlyElementsOf(cards.reversed());
        assertThat(second.body()).doesNotContain("rel=\"next\"");

        var csv = viewer.get("/dashboard/test/payments.csv?last4=4242");
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.header("Content-Type")).startsWith("text/csv");
        assertThat(csv.header("Content-Disposition")).startsWith("attachment; filename=\"payments-test-");
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(csv.body())).getRecords();
        assertThat(records).extracting(r -> r.get("id")).containsExactlyElementsOf(cards.reversed());
        assertThat(records).extracting(r -> r.get("external_reference")).containsOnly("'=HYPERLINK(\"x\")");
        assertThat(records).extracting(r -> r.get("amount")).containsOnly("100.00");

        var refused = viewer.get("/dashboard/test/payments.csv?amount_min=lots");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("Content-Type")).startsWith("text/html");
    }

    @Test
    void aPaymentsPageShowsItsTimelineAndAnotherMerchantsPaymentIsNotFound() {
        String id = payment(Instant.now(), "4242", "order-9");
        String refund = rows.refund(merchant.id(), Mode.TEST, id);

        var page = viewer.get("/dashboard/test/payments/" + id);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains(id).contains("Visa ···· 4242").contains("order-9")
                .contains("Refund " + refund).contains("Timeline");

        Merchant other = merchants.create();
        String theirs = rows.payment(other.id(), Mode.TEST, Instant.now(), p -> { });
        var notFound = viewer.get("/dashboard/test/payments/" + theirs);
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.body()).contains("Payment not found").doesNotContain("ZAR 100.00");
        assertThat(viewer.get("/dashboard/live/payments/" + id).status()).as("the other mode").isEqualTo(404);
        assertThat(viewer.get("/dashboard/test/payments/ps_notapayment").status()).isEqualTo(404);
    }
}
