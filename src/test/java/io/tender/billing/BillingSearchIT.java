package io.tender.billing;

import io.tender.api.Ids;
import io.tender.api.Keyset;
import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BillingSearch}, the dashboard's read of billing, over the real database: only the merchant's rows of the
 * mode, whatever the search says; rows made at the same instant paged once each, newest first and then by id; a
 * name's start matched literally (LIKE's wildcards are characters); bills narrowed by status, due dates and the ids
 * that lead to them.
 */
class BillingSearchIT extends ApiIntegrationTest {

    @Autowired
    private BillingSearch search;

    private String customer(String merchant, Mode mode, String name, String email, Instant at) {
        String id = Ids.newId("bcus_");
        jdbc.sql("""
                        insert into billing_customers (id, merchant_id, mode, external_reference, obligation_id, name,
                            email, created_at, updated_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(id, merchant, mode.wire(), "ref-" + id, Ids.newId("ob_"), name, email,
                        at.atOffset(ZoneOffset.UTC), at.atOffset(ZoneOffset.UTC))
                .update();
        return id;
    }

    private String bill(String merchant, String customer, String status, LocalDate due, Instant at) {
        String id = Ids.newId("bill_");
        jdbc.sql("""
                        insert into billing_bills (id, merchant_id, mode, external_reference, obligation_id, customer_id,
                            status, currency, amount_due, amount_paid, bill_date, due_date, overpayment_allowed,
                            underpayment_allowed, created_at, updated_at)
                        values (?, ?, 'test', ?, ?, ?, ?, 'ZAR', 1000, 0, ?, ?, false, true, ?, ?)""")
                .params(id, merchant, "INV-" + id, Ids.newId("ob_"), customer, status, due.minusDays(30), due,
                        at.atOffset(ZoneOffset.UTC), at.atOffset(ZoneOffset.UTC))
                .update();
        return id;
    }

    @Test
    void rowsOfOneInstantArePagedOnceEachNewestFirstThenById() {
        String merchant = merchants.create().id();
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            made.add(customer(merchant, Mode.TEST, "Tie " + i, "tie" + i + "@example.com", at));
        }
        String older = customer(merchant, Mode.TEST, "Older", "older@example.com", at.minusSeconds(1));

        List<String> seen = new ArrayList<>();
        Keyset after = null;
        int pages = 0;
        do {
            var page = search.customers(merchant, Mode.TEST, null, after, 2);
            page.rows().forEach(c -> seen.add(c.id()));
            after = page.nextCursor() == null ? null : Keyset.read(page.nextCursor(), "bcus_").orElseThrow();
            pages++;
        } while (after != null);

        List<String> expected = new ArrayList<>(made.stream().sorted(Comparator.reverseOrder()).toList());
        expected.add(older);
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void aSearchFindsOnlyTheMerchantsCustomersOfTheModeAndMatchesANamesStartLiterally() {
        String merchant = merchants.create().id();
        String other = merchants.create().id();
        Instant now = Instant.now();
        String grace = customer(merchant, Mode.TEST, "Grace Hopper", "Grace@Example.com", now);
        String percent = customer(merchant, Mode.TEST, "100% Cotton Ltd", "cotton@example.com", now);
        customer(merchant, Mode.LIVE, "Grace Live", "grace@example.com", now);
        String theirs = customer(other, Mode.TEST, "Grace Other", "grace@example.com", now);

        assertThat(search.customers(merchant, Mode.TEST, "GRACE@example.COM", null, 10).rows())
                .extracting(BillingSearch.CustomerRow::id).containsExactly(grace);
        assertThat(search.customers(merchant, Mode.TEST, "grace", null, 10).rows())
                .extracting(BillingSearch.CustomerRow::id).containsExactly(grace);
        assertThat(search.customers(merchant, Mode.TEST, "100%", null, 10).rows())
                .extracting(BillingSearch.CustomerRow::id).containsExactly(percent);
        assertThat(search.customers(merchant, Mode.TEST, "1_0", null, 10).rows()).isEmpty();
        assertThat(search.customers(merchant, Mode.TEST, "%", null, 10).rows()).isEmpty();
        assertThat(search.customers(merchant, Mode.TEST, theirs, null, 10).rows()).isEmpty();
        assertThat(search.customer(merchant, Mode.TEST, theirs)).isEmpty();
        assertThat(search.customer(merchant, Mode.LIVE, grace)).isEmpty();
        assertThat(search.customers(merchant, Mode.LIVE, null, null, 10).rows())
                .extracting(BillingSearch.CustomerRow::name).containsExactly("Grace Live");
    }

    @Test
    void billsAreNarrowedByStatusDueDatesAndTheIdsThatLeadToThem() {
        String merchant = merchants.create().id();
        Instant now = Instant.now();
        String customer = customer(merchant, Mode.TEST, "Billed", "billed@example.com", now);
        String unpaid = bill(merchant, customer, "unpaid", LocalDate.of(2030, 1, 31), now.minusSeconds(3));
        String paid = bill(merchant, customer, "paid", LocalDate.of(2030, 2, 28), now.minusSeconds(2));
        String voided = bill(merchant, customer, "voided", LocalDate.of(2030, 3, 31), now.minusSeconds(1));
        String foreign = bill(merchants.create().id(), customer, "unpaid", LocalDate.of(2030, 1, 31), now);

        assertThat(ids(BillingSearch.BillFilter.NONE, merchant))
                .containsExactly(voided, paid, unpaid);
        assertThat(ids(BillingSearch.BillFilter.NONE.withStatus("paid"), merchant)).containsExactly(paid);
        assertThat(ids(new BillingSearch.BillFilter(null, LocalDate.of(2030, 2, 28), LocalDate.of(2030, 3, 30), null),
                merchant)).as("both ends included").containsExactly(paid);
        assertThat(ids(BillingSearch.BillFilter.searching(customer), merchant))
                .containsExactly(voided, paid, unpaid);
        assertThat(ids(BillingSearch.BillFilter.searching("INV-" + unpaid), merchant))
                .containsExactly(unpaid);
        assertThat(ids(BillingSearch.BillFilter.searching(foreign), merchant)).isEmpty();
        assertThat(search.bill(merchant, Mode.TEST, foreign)).isEmpty();
    }

    private List<String> ids(BillingSearch.BillFilter filter, String merchant) {
        return search.bills(merchant, Mode.TEST, filter, null, 10).rows().stream().map(BillingSearch.BillRow::id)
                .toList();
    }
}
