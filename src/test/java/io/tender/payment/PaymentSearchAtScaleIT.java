package io.tender.payment;

import io.tender.support.PaymentRows;
import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search at a merchant's scale (issue 25): 50,000 payments of one merchant in test mode, beside another merchant's
 * and the live mode's, answer a filtered first page in under 200 ms, through V60's indexes rather than a read of the
 * whole table. Payment {@code g} of a tenant is {@code g} minutes old; every 50th failed, the next pending; every
 * 10th from g = 9 a bank payment; the others cards with last4 {@code g % 10000}; every 1000th from g = 7 the
 * customer's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PaymentSearchAtScaleIT extends ApiIntegrationTest {

    private static final int PAYMENTS = 50_000;
    private static final String EMAIL = "Thandi.Nkosi@Example.com";
    private static final Duration BUDGET = Duration.ofMillis(200);

    @Autowired
    private PaymentSearch search;
    @Autowired
    private PaymentObligations customers;

    private final String merchant = Ids.newId("mch_");
    private final String other = Ids.newId("mch_");
    private final Instant start = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

    @BeforeAll
    void fiftyThousandPayments() {
        PaymentRows rows = new PaymentRows(jdbc);
        insert(merchant, Mode.TEST, rows.customer(merchant, Mode.TEST, EMAIL), PAYMENTS);
        insert(other, Mode.TEST, rows.customer(other, Mode.TEST, EMAIL.toLowerCase()), 2_000);
        insert(merchant, Mode.LIVE, rows.customer(merchant, Mode.LIVE, EMAIL), 2_000);
        // As autovacuum would soon after such a load: the planner judges the indexes by the table's statistics.
        jdbc.sql("analyze payments").update();
        jdbc.sql("analyze billing_customers").update();
    }

    private void insert(String merchantId, Mode mode, String customer, int count) {
        jdbc.sql("""
                        insert into payments (id, merchant_id, mode, status, amount, currency, paid_amount,
                            authorized_amount, payment_method_details, external_reference, customer_id,
                            created_at, updated_at)
                        select 'pay_' || substr(md5(:merchant || :mode || g), 1, 24), :merchant, :mode,
                            case g % 50 when 0 then 'failed' when 1 then 'pending' else 'succeeded' end,
                            1000 + g % 100000, 'ZAR',
                            case when g % 50 > 1 then 1000 + g % 100000 else 0 end,
                            case when g % 50 <> 0 then 1000 + g % 100000 else 0 end,
                            case when g % 10 = 9
                                then jsonb_build_object('type', 'pay_by_bank', 'pay_by_bank',
                                                        jsonb_build_object('bank', 'capitec'))
                                else jsonb_build_object('type', 'card', 'card', jsonb_build_object(
                                    'type', 'credit', 'scheme', case when g % 3 = 0 then 'mastercard' else 'visa' end,
                                    'last4', lpad((g % 10000)::text, 4, '0'), 'exp_month', 1 + g % 12,
                                    'exp_year', 2030)) end,
                            'order-' || g,
                            case when g % 1000 = 7 then :customer end,
                            :start - g * interval '1 minute', :start - g * interval '1 minute'
                        from generate_series(1, :count) g""")
                .param("merchant", merchantId).param("mode", mode.wire()).param("customer", customer)
                .param("start", start.atOffset(ZoneOffset.UTC)).param("count", count).update();
    }

    /** The id of the tenant's payment {@code g}, as the insert makes it. */
    private String id(int g) {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5").digest((merchant + "test" + g).getBytes(StandardCharsets.UTF_8));
            return "pay_" + HexFormat.of().formatHex(md5).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aStatusAndLast4PageAnswersInUnder200MillisecondsThroughAnIndex() {
        PaymentFilter filter = PaymentFilter.NONE.withStatuses(PaymentStatus.FAILED).withLast4("0100");

        PaymentSearch.Page page = timed("status failed, last4 0100",
                () -> search.page(merchant, Mode.TEST, filter, null, 20));

        assertThat(page.rows()).extracting(PaymentSearch.Row::id)
                .containsExactly(id(100), id(10100), id(20100), id(30100), id(40100));
        assertThat(page.nextCursor()).isNull();
        assertUsesIndexes(PaymentSearch.statement(merchant, Mode.TEST, filter, null, null, 21));
    }

    @Test
    void aCustomerEmailPageAnswersInUnder200MillisecondsThroughAnIndex() {
        PaymentFilter filter = PaymentFilter.NONE.withCustomerEmail(EMAIL.toUpperCase());

        PaymentSearch.Page page = timed("customer email", () -> search.page(merchant, Mode.TEST, filter, null, 20));

        assertThat(page.rows()).extracting(PaymentSearch.Row::id)
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> id(7 + 1000 * i)).toList());
        assertThat(page.rows()).allSatisfy(row -> assertThat(row.customerEmail()).isEqualTo(EMAIL));
        assertThat(page.nextCursor()).isNotNull();
        List<String> customerIds = customers.customerIdsByEmail(Caller.system(merchant, Mode.TEST), EMAIL);
        assertUsesIndexes(PaymentSearch.statement(merchant, Mode.TEST, filter, customerIds, null, 21));
    }

    @Test
    void anUnfilteredPageAndADayOfPaymentsAnswerInUnder200Milliseconds() {
        PaymentSearch.Page first = timed("no filter", () -> search.page(merchant, Mode.TEST, PaymentFilter.NONE,
                null, 100));
        assertThat(first.rows()).extracting(PaymentSearch.Row::id)
                .containsExactlyElementsOf(IntStream.rangeClosed(1, 100).mapToObj(this::id).toList());

        var day = start.atOffset(ZoneOffset.UTC).toLocalDate().minusDays(10);
        PaymentFilter filter = PaymentFilter.NONE.createdBetween(day, day).withMethod(PaymentMethodType.CARD);
        PaymentSearch.Page page = timed("one day's card payments", () -> search.page(merchant, Mode.TEST, filter,
                null, 100));
        assertThat(page.rows()).hasSize(100).allSatisfy(row -> {
            assertThat(row.createdAt().atOffset(ZoneOffset.UTC).toLocalDate()).isEqualTo(day);
            assertThat(row.methodType()).isEqualTo("card");
        });
        assertUsesIndexes(PaymentSearch.statement(merchant, Mode.TEST, filter, null, null, 101));
    }

    @Test
    void theExportHandsOverAll50000PaymentsAsTheyAreReadFromAServerSideCursor() {
        long[] seen = {0};
        long[] openCursors = {0};
        long began = System.nanoTime();
        search.export(merchant, Mode.TEST, PaymentFilter.NONE, row -> {
            if (seen[0]++ == 0) {
                // The first row arrives while the statement's portal is still open in this transaction: the rest
                // are fetched as they are written, not read into memory first.
                openCursors[0] = jdbc.sql("select count(*) from pg_cursors where statement like ?")
                        .param("%from payments p%").query(Long.class).single();
            }
        });
        System.out.printf("PaymentSearchAtScaleIT: export of %,d payments: %.0f ms%n", seen[0],
                (System.nanoTime() - began) / 1e6);
        assertThat(seen[0]).isEqualTo(PAYMENTS);
        assertThat(openCursors[0]).isPositive();
    }

    /** The best of five runs after a warm-up (the machine is shared), which must be within {@link #BUDGET}. */
    private <T> T timed(String what, Supplier<T> query) {
        T result = query.get();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long began = System.nanoTime();
            result = query.get();
            best = Math.min(best, System.nanoTime() - began);
        }
        System.out.printf("PaymentSearchAtScaleIT: %s over %,d payments: best of 5 %.1f ms%n", what, PAYMENTS,
                best / 1e6);
        assertThat(Duration.ofNanos(best)).as(what).isLessThan(BUDGET);
        return result;
    }

    private void assertUsesIndexes(PaymentSearch.Statement statement) {
        String plan = String.join("\n", jdbc.sql("explain " + statement.sql()).params(statement.params())
                .query(String.class).list());
        System.out.println("PaymentSearchAtScaleIT plan:\n" + plan);
        assertThat(plan).doesNotContain("Seq Scan on payments").containsPattern("Index (Only )?Scan .*on payments");
    }
}
