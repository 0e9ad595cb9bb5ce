package io.tender.payment;

import io.tender.support.PaymentRows;
import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.api.Ids;
import io.tender.api.Rejected;
import io.tender.api.Rejections;
import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The dashboard's search of payments (decisions §11) over the real database: each filter alone and combined, search by
 * any id a payment is reached by, pages that walk the whole set once, never another merchant's or the other mode's
 * payments, refusals that name the form field a person got wrong, and the CSV export of the whole filtered set.
 */
class PaymentSearchIT extends ApiIntegrationTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 10);

    @Autowired
    private PaymentSearch search;
    @Autowired
    private Rejections rejections;

    private PaymentRows rows;
    private String merchant;
    private String other;

    @BeforeEach
    void merchants() {
        rows = new PaymentRows(jdbc);
        merchant = Ids.newId("mch_");
        other = Ids.newId("mch_");
    }

    private static Instant at(LocalDate day, int hour) {
        return day.atTime(hour, 0).toInstant(ZoneOffset.UTC);
    }

    private List<String> ids(PaymentFilter filter) {
        return search.page(merchant, Mode.TEST, filter, null, 100).rows().stream().map(PaymentSearch.Row::id).toList();
    }

    @Test
    void eachFilterAloneAndCombinedListsExactlyTheMerchantsPaymentsThatMatchNewestFirst() {
        String ayanda = rows.customer(merchant, Mode.TEST, "Ayanda.Dlamini@Example.com");
        String otherAyanda = rows.customer(other, Mode.TEST, "ayanda.dlamini@example.com");
        String liveAyanda = rows.customer(merchant, Mode.LIVE, "ayanda.dlamini@example.com");
        rows.customer(merchant, Mode.TEST, "someone.else@example.com");

        String visaOrder = rows.payment(merchant, Mode.TEST, at(DAY.minusDays(2), 9),
                p -> p.put("externalReference", "order-1"));
        String declined = rows.payment(merchant, Mode.TEST, at(DAY.minusDays(1), 23), p -> {
            p.put("status", "failed");
            p.put("amount", 500L);
            p.put("details", PaymentRows.card("mastercard", "4444"));
        });
        String bank = rows.payment(merchant, Mode.TEST, at(DAY, 0), p -> {
            p.put("status", "pending");
            p.put("amount", 250000L);
            p.put("currency", "USD");
            p.put("details", PaymentRows.bank("capitec"));
        });
        String customers = rows.payment(merchant, Mode.TEST, at(DAY, 12), p -> p.put("customer", ayanda));
        // The same payment again for another merchant and for the live mode: never listed.
        for (var tenant : List.of(Map.entry(other, Mode.TEST), Map.entry(merchant, Mode.LIVE))) {
            String customer = tenant.getKey().equals(other) ? otherAyanda : liveAyanda;
            rows.payment(tenant.getKey(), tenant.getValue(), at(DAY, 13), p -> {
                p.put("externalReference", "order-1");
                p.put("customer", customer);
            });
        }

        assertThat(ids(PaymentFilter.NONE)).containsExactly(customers, bank, declined, visaOrder);
        assertThat(ids(PaymentFilter.NONE.withStatuses(PaymentStatus.FAILED, PaymentStatus.PENDING)))
                .containsExactly(bank, declined);
        assertThat(ids(PaymentFilter.NONE.withMethod(PaymentMethodType.PAY_BY_BANK))).containsExactly(bank);
        assertThat(ids(PaymentFilter.NONE.withMethod(PaymentMethodType.CARD)))
                .containsExactly(customers, declined, visaOrder);
        // Whole days in UTC, both ends included: 23:00 the day before is in, 00:00 of the day is in.
        assertThat(ids(PaymentFilter.NONE.createdBetween(DAY.minusDays(1), DAY.minusDays(1)))).containsExactly(declined);
        assertThat(ids(PaymentFilter.NONE.createdBetween(DAY, null))).containsExactly(customers, bank);
        assertThat(ids(PaymentFilter.NONE.createdBetween(null, DAY.minusDays(2)))).containsExactly(visaOrder);
        assertThat(ids(PaymentFilter.NONE.amountBetween(500L, 10000L))).containsExactly(customers, declined, visaOrder);
        assertThat(ids(PaymentFilter.NONE.amountBetween(501L, null))).containsExactly(customers, bank, visaOrder);
        assertThat(ids(PaymentFilter.NONE.withCurrency("USD"))).containsExactly(bank);
        assertThat(ids(PaymentFilter.NONE.withCustomerEmail("AYANDA.dlamini@example.COM"))).containsExactly(customers);
        assertThat(ids(PaymentFilter.NONE.withCustomerEmail("nobody@example.com"))).isEmpty();
        assertThat(ids(PaymentFilter.NONE.withLast4("4444"))).containsExactly(declined);
        assertThat(ids(PaymentFilter.NONE.withLast4("1881"))).containsExactly(customers, visaOrder);
        assertThat(ids(PaymentFilter.NONE.withExternalReference("order-1"))).containsExactly(visaOrder);
        assertThat(ids(PaymentFilter.NONE.withLast4("1881").createdBetween(DAY, DAY)
                .withStatuses(PaymentStatus.SUCCEEDED))).containsExactly(customers);
        assertThat(ids(PaymentFilter.NONE.withLast4("1881").withStatuses(PaymentStatus.FAILED))).isEmpty();

        PaymentSearch.Row row = search.page(merchant, Mode.TEST, PaymentFilter.NONE.withId(customers), null, 10)
                .rows().getFirst();
        assertThat(row).extracting(PaymentSearch.Row::methodType, PaymentSearch.Row::cardBrand,
                        PaymentSearch.Row::cardLast4, PaymentSearch.Row::customerId, PaymentSearch.Row::customerEmail)
                .containsExactly("card", "visa", "1881", ayanda, "Ayanda.Dlamini@Example.com");
        assertThat(search.page(merchant, Mode.LIVE, PaymentFilter.NONE, null, 10).rows()).hasSize(1);
    }

    @Test
    void searchByAnyIdFindsThePaymentsThatIdLeadsToAndOnlyTheMerchants() {
        String session = Ids.newId("ps_");
        String customer = rows.customer(merchant, Mode.TEST, "lindiwe@example.com");
        String mandate = Ids.newId("mdt_");
        String subscription = Ids.newId("sub_");
        String method = Ids.newId(SavedPaymentMethod.PREFIX);
        String obligation = Ids.newId("ob_");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String first = rows.payment(merchant, Mode.TEST, now.minusSeconds(60), p -> {
            p.put("session", session);
            p.put("customer", customer);
            p.put("mandate", mandate);
            p.put("paymentMethod", method);
            p.put("obligation", obligation);
        });
        String second = rows.payment(merchant, Mode.TEST, now.minusSeconds(30), p -> {
            p.put("customer", customer);
            p.put("mandate", mandate);
            p.put("subscription", subscription);
        });
        String unrelated = rows.payment(merchant, Mode.TEST, now, p -> {
        });
        String refund = rows.refund(merchant, Mode.TEST, second);
        // Another merchant's payment of the same session, and its refund: neither leads anywhere for this merchant.
        String othersPayment = rows.payment(other, Mode.TEST, now, p -> p.put("session", session));
        String othersRefund = rows.refund(other, Mode.TEST, othersPayment);

        assertThat(ids(PaymentFilter.NONE.withId(first))).containsExactly(first);
        assertThat(ids(PaymentFilter.NONE.withId(session))).containsExactly(first);
        assertThat(ids(PaymentFilter.NONE.withId(customer))).containsExactly(second, first);
        assertThat(ids(PaymentFilter.NONE.withId(mandate))).containsExactly(second, first);
        assertThat(ids(PaymentFilter.NONE.withId(subscription))).containsExactly(second);
        assertThat(ids(PaymentFilter.NONE.withId(method))).containsExactly(first);
        assertThat(ids(PaymentFilter.NONE.withId(obligation))).containsExactly(first);
        assertThat(ids(PaymentFilter.NONE.withId(refund))).containsExactly(second);
        assertThat(ids(PaymentFilter.NONE.withId(othersPayment))).isEmpty();
        assertThat(ids(PaymentFilter.NONE.withId(othersRefund))).isEmpty();
        assertThat(ids(PaymentFilter.NONE)).containsExactly(unrelated, second, first);
    }

    @Test
    void pagesWalkTheWholeSetOnceInOrderAndANewPaymentDoesNotShiftTheLaterPages() {
        Instant base = Instant.parse("2026-04-01T10:00:00Z");
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            // Pairs created in the same microsecond: the id decides their order.
            made.add(rows.payment(merchant, Mode.TEST, base.plusSeconds(i / 2), p -> {
            }));
        }
        List<String> expected = search.page(merchant, Mode.TEST, PaymentFilter.NONE, null, 100).rows().stream()
                .map(PaymentSearch.Row::id).toList();
        assertThat(expected).containsExactlyInAnyOrderElementsOf(made);

        List<String> walked = new ArrayList<>();
        PaymentSearch.Page page = search.page(merchant, Mode.TEST, PaymentFilter.NONE, null, 10);
        walked.addAll(page.rows().stream().map(PaymentSearch.Row::id).toList());
        rows.payment(merchant, Mode.TEST, base.plusSeconds(3600), p -> {
        });
        while (page.nextCursor() != null) {
            page = search.page(merchant, Mode.TEST, PaymentFilter.NONE, page.nextCursor(), 10);
            walked.addAll(page.rows().stream().map(PaymentSearch.Row::id).toList());
        }
        assertThat(walked).containsExactlyElementsOf(expected);
    }

    @Test
    void filterValuesThatCannotMatchAreRefusedNamingEachFormField() {
        Map<String, String[]> form = new HashMap<>();
        form.put("status", new String[]{"succeeded", "paid"});
        form.put("method", new String[]{"cheque"});
        form.put("created_from", new String[]{"2026-02-30"});
        form.put("amount_min", new String[]{"ten"});
        assertThat(fields(() -> PaymentFilter.read(form)))
                .containsExactly("status", "method", "created_from", "amount_min");

        Map<String, String[]> ranges = new HashMap<>();
        ranges.put("created_from", new String[]{"2026-03-10"});
        ranges.put("created_to", new String[]{"2026-03-09"});
        ranges.put("amount_min", new String[]{"500"});
        ranges.put("amount_max", new String[]{"499"});
        ranges.put("currency", new String[]{"zar"});
        ranges.put("customer_email", new String[]{"not an email"});
        ranges.put("last4", new String[]{"12345"});
        ranges.put("external_reference", new String[]{"order 1"});
        ranges.put("id", new String[]{"inv_123"});
        assertThat(fields(() -> PaymentFilter.read(ranges))).containsExactly("created_to", "amount_max", "currency",
                "customer_email", "last4", "external_reference", "id");

        assertThat(fields(() -> search.page(merchant, Mode.TEST, PaymentFilter.NONE, null, 101))).containsExactly("limit");
        assertThat(fields(() -> search.page(merchant, Mode.TEST, PaymentFilter.NONE, "bm90IGEgY3Vyc29y", 10)))
                .containsExactly("cursor");
        ApiException problem = problem(() -> PaymentFilter.NONE.withLast4("12"));
        assertThat(problem.status()).isEqualTo(400);
        assertThat(problem.getMessage()).isEqualTo("last4: must be the last 4 digits of a card");

        // Blank fields are not given; a form of valid values is taken as it is, trimmed.
        Map<String, String[]> valid = new HashMap<>();
        valid.put("status", new String[]{"failed", "pending"});
        valid.put("last4", new String[]{" 4444 "});
        valid.put("currency", new String[]{""});
        valid.put("cursor", new String[]{"left to the caller"});
        PaymentFilter read = PaymentFilter.read(valid);
        assertThat(read.statuses()).containsExactlyInAnyOrder(PaymentStatus.FAILED, PaymentStatus.PENDING);
        assertThat(read.last4()).isEqualTo("4444");
        assertThat(read.currency()).isNull();
    }

    @Test
    void theCsvExportHoldsEveryMatchingPaymentOnceBeyondOnePageAndNothingOfAnotherMerchantOrMode() throws IOException {
        Instant base = Instant.parse("2026-05-01T08:00:00Z");
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < 230; i++) {
            boolean fails = i % 3 != 0;
            String id = rows.payment(merchant, Mode.TEST, base.plusSeconds(i / 4), p -> {
                if (fails) {
                    p.put("status", "failed");
                }
            });
            if (fails) {
                failed.add(id);
            }
        }
        rows.payment(other, Mode.TEST, base, p -> p.put("status", "failed"));
        rows.payment(merchant, Mode.LIVE, base, p -> p.put("status", "failed"));
        PaymentFilter filter = PaymentFilter.NONE.withStatuses(PaymentStatus.FAILED);
        assertThat(failed).hasSizeGreaterThan(PaymentSearch.MAX_LIMIT);

        StringWriter out = new StringWriter();
        long written = search.exportCsv(merchant, Mode.TEST, filter, out);

        List<CSVRecord> records = parse(out.toString());
        assertThat(written).isEqualTo(failed.size());
        assertThat(records).extracting(r -> r.get("id")).containsExactlyInAnyOrderElementsOf(failed)
                .doesNotHaveDuplicates();
        List<String> listed = new ArrayList<>();
        PaymentSearch.Page page = search.page(merchant, Mode.TEST, filter, null, PaymentSearch.MAX_LIMIT);
        listed.addAll(page.rows().stream().map(PaymentSearch.Row::id).toList());
        while (page.nextCursor() != null) {
            page = search.page(merchant, Mode.TEST, filter, page.nextCursor(), PaymentSearch.MAX_LIMIT);
            listed.addAll(page.rows().stream().map(PaymentSearch.Row::id).toList());
        }
        assertThat(records).extracting(r -> r.get("id")).containsExactlyElementsOf(listed);
    }

    @Test
    void theCsvExportShowsAmountsInMajorUnitsDefusesFormulasAndRoundTripsCommasQuotesAndNewlines() throws IOException {
        String customer = rows.customer(merchant, Mode.TEST, "=HYPERLINK(\"http://evil.example\")@example.com");
        Instant now = Instant.parse("2026-05-02T08:00:00Z");
        String formula = rows.payment(merchant, Mode.TEST, now, p -> {
            p.put("externalReference", "-2+3");
            p.put("customer", customer);
            p.put("refunded", 2550L);
        });
        String awkward = "order, \"the big one\"\nsecond line";
        String quoted = rows.payment(merchant, Mode.TEST, now.minusSeconds(1), p -> {
            p.put("externalReference", awkward);
            p.put("amount", 1500L);
            p.put("currency", "JPY");
            p.put("details", PaymentRows.bank("tymebank"));
        });

        StringWriter out = new StringWriter();
        search.exportCsv(merchant, Mode.TEST, PaymentFilter.NONE, out);

        List<CSVRecord> records = parse(out.toString());
        assertThat(records).hasSize(2);
        CSVRecord first = records.get(0);
        assertThat(first.toMap()).containsEntry("id", formula).containsEntry("created_at", "2026-05-02T08:00:00Z")
                .containsEntry("status", "succeeded").containsEntry("amount", "100.00")
                .containsEntry("currency", "ZAR").containsEntry("method", "card").containsEntry("card_brand", "visa")
                .containsEntry("card_last4", "1881").containsEntry("customer_id", customer)
                .containsEntry("customer_email", "'=HYPERLINK(\"http://evil.example\")@example.com")
                .containsEntry("external_reference", "'-2+3").containsEntry("refunded_amount", "25.50");
        CSVRecord second = records.get(1);
        assertThat(second.toMap()).containsEntry("id", quoted).containsEntry("amount", "1500")
                .containsEntry("currency", "JPY").containsEntry("method", "pay_by_bank")
                .containsEntry("card_last4", "").containsEntry("external_reference", awkward);
    }

    private static List<CSVRecord> parse(String csv) throws IOException {
        try (CSVParser parser = CSVParser.parse(csv, CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                .get())) {
            assertThat(parser.getHeaderNames()).containsExactlyElementsOf(PaymentSearch.CSV_COLUMNS);
            return parser.getRecords();
        }
    }

    private ApiException problem(Runnable work) {
        Rejected rejected = catchThrowableOfType(Rejected.class, work::run);
        assertThat(rejected).as("refused").isNotNull();
        return rejections.problem(rejected.rejection());
    }

    private List<String> fields(Runnable work) {
        return problem(work).errors().stream().map(FieldError::field).toList();
    }
}
