package io.tender.payment;

import io.tender.api.Currencies;
import io.tender.api.FieldError;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The dashboard's Payments page (decisions §11): one merchant's payments in one mode, narrowed by a
 * {@link PaymentFilter}, newest first, a page at a time ({@link #page}) or all of them as CSV ({@link #export}).
 * Another merchant's payments and the other mode's never appear, whatever the filter or cursor says. The customer
 * email is billing's, asked through {@link PaymentObligations}: this module never reads billing's tables.
 */
@Service
public class PaymentSearch {

    /** The most rows a page holds. */
    public static final int MAX_LIMIT = 100;
    /** The columns of {@link #export}, in order. */
    public static final List<String> CSV_COLUMNS = List.of("id", "created_at", "status", "amount", "currency",
            "method", "card_brand", "card_last4", "customer_id", "customer_email", "external_reference",
            "refunded_amount");

    /** Rows an export reads from the database at a time, and for which it asks billing for emails at once. */
    static final int EXPORT_BATCH = 500;

    /** One payment as the list and the export show it; amounts in minor units. */
    public record Row(String id, Instant createdAt, PaymentStatus status, long amount, String currency,
                      String methodType, String cardBrand, String cardLast4, String customerId, String customerEmail,
                      String externalReference, long paidAmount, long refundedAmount, long authorizedAmount,
                      long voidedAmount) {

        Row withEmail(String email) {
            return new Row(id, createdAt, status, amount, currency, methodType, cardBrand, cardLast4, customerId,
                    email, externalReference, paidAmount, refundedAmount, authorizedAmount, voidedAmount);
        }

        /** What an authorization still holds for a capture or a void (0 when nothing is held). */
        public long capturable() {
            return status == PaymentStatus.SUCCEEDED ? Math.max(0, authorizedAmount - paidAmount - voidedAmount) : 0;
        }

        /** What can still be refunded of what was captured. */
        public long refundable() {
            return status == PaymentStatus.SUCCEEDED ? Math.max(0, paidAmount - refundedAmount) : 0;
        }
    }

    /** A page of rows, and the cursor of the next page (null: this is the last). */
    public record Page(List<Row> rows, String nextCursor) {
    }

    /** A statement and its bound values: the search's SQL is made of fixed fragments, the values always bound. */
    record Statement(String sql, Map<String, Object> params) {
    }

    /** Where a page ends: the last row's position in the list's order. */
    record Position(Instant createdAt, String id) {

        String cursor() {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((createdAt + " " + id).getBytes(StandardCharsets.UTF_8));
        }

        static Position of(String cursor) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(" ");
                if (parts.length == 2 && parts[1].startsWith(Payments.PREFIX)) {
                    return new Position(Instant.parse(parts[0]), parts[1]);
                }
            } catch (RuntimeException e) {
                // refused below, as any other value that is not a cursor of this list
            }
            throw new PaymentRejection.FilterInvalid(List.of(new FieldError("cursor",
                    "is not a cursor of this list"))).thrown();
        }
    }

    private static final String SELECT = """
            select p.id, p.created_at, p.status, p.amount, p.currency, p.payment_method_details ->> 'type' as method,
                p.payment_method_details -> 'card' ->> 'scheme' as card_brand,
                p.payment_method_details -> 'card' ->> 'last4' as card_last4,
                p.customer_id, p.external_reference, p.paid_amount, p.refunded_amount, p.authorized_amount,
                p.voided_amount
            from payments p
            where p.merchant_id = :merchant and p.mode = :mode""";
    private static final String ORDER = " order by p.created_at desc, p.id desc";

    /** What {@link PaymentFilter#id} is compared with, by the id's prefix. */
    private static final Map<String, String> BY_ID = Map.of(
            Payments.PREFIX, " and p.id = :id",
            "ps_", " and p.payment_session_id = :id",
            "bcus_", " and p.customer_id = :id",
            "mdt_", " and p.mandate_id = :id",
            "sub_", " and p.subscription_id = :id",
            SavedPaymentMethod.PREFIX, " and p.payment_method_id = :id",
            "ob_", " and p.obligation_id = :id",
            "rfd_", " and p.id = (select r.payment_id from refunds r where r.id = :id"
                    + " and r.merchant_id = :merchant and r.mode = :mode and r.status <> 'draft')");

    private final JdbcClient jdbc;
    private final PaymentObligations customers;
    private final TransactionTemplate readOnly;

    PaymentSearch(JdbcClient jdbc, PaymentObligations customers, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.customers = customers;
        this.readOnly = new TransactionTemplate(Objects.requireNonNull(tx.getTransactionManager()));
        readOnly.setReadOnly(true);
    }

    /**
     * The page of the merchant's payments in {@code mode} that match {@code filter}, newest first ({@code created_at},
     * then id, both descending): the first page without a cursor, the next with the {@link Page#nextCursor} of the one
     * before. A payment made after the first page was read never shifts the later pages. Refused as
     * {@link PaymentRejection.FilterInvalid} naming {@code limit} (1 to {@value #MAX_LIMIT}) or {@code cursor}.
     */
    public Page page(String merchantId, Mode mode, PaymentFilter filter, String cursor, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new PaymentRejection.FilterInvalid(List.of(new FieldError("limit",
                    "must be 1 to " + MAX_LIMIT))).thrown();
        }
        Position after = cursor == null || cursor.isBlank() ? null : Position.of(cursor);
        Caller caller = Caller.system(merchantId, mode);
        List<String> customerIds = customerIds(caller, filter);
        if (customerIds != null && customerIds.isEmpty()) {
            return new Page(List.of(), null);
        }
        Statement statement = statement(merchantId, mode, filter, customerIds, after, limit + 1);
        List<Row> rows = jdbc.sql(statement.sql()).params(statement.params()).query(PaymentSearch::row).list();
        boolean more = rows.size() > limit;
        List<Row> shown = withEmails(caller, more ? rows.subList(0, limit) : rows);
        return new Page(shown, more ? new Position(shown.getLast().createdAt(), shown.getLast().id()).cursor() : null);
    }

    /**
     * Every payment {@link #page} would list for {@code filter}, in its order, handed to {@code rows} as they are read:
     * the database gives them {@value #EXPORT_BATCH} at a time from a cursor of one read-only transaction, so the
     * whole set is one consistent view and never held in memory at once.
     */
    public void export(String merchantId, Mode mode, PaymentFilter filter, Consumer<Row> rows) {
        readOnly.executeWithoutResult(s -> read(merchantId, mode, filter, rows));
    }

    private void read(String merchantId, Mode mode, PaymentFilter filter, Consumer<Row> rows) {
        Caller caller = Caller.system(merchantId, mode);
        List<String> customerIds = customerIds(caller, filter);
        if (customerIds != null && customerIds.isEmpty()) {
            return;
        }
        Statement statement = statement(merchantId, mode, filter, customerIds, null, null);
        List<Row> batch = new ArrayList<>(EXPORT_BATCH);
        try (Stream<Row> read = jdbc.sql(statement.sql()).params(statement.params()).withFetchSize(EXPORT_BATCH)
                .query(PaymentSearch::row).stream()) {
            read.forEach(row -> {
                batch.add(row);
                if (batch.size() == EXPORT_BATCH) {
                    withEmails(caller, batch).forEach(rows);
                    batch.clear();
                }
            });
        }
        withEmails(caller, batch).forEach(rows);
    }

    /**
     * {@link #export} as CSV (RFC 4180, a header row of {@link #CSV_COLUMNS}), written to {@code out} as the rows are
     * read; returns how many payments it wrote. Amounts are in major units with the currency's decimals
     * ({@code 150.00}), times in UTC as the API writes them. A cell that a spreadsheet would read as a formula (one
     * starting with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return) is written with a leading
     * apostrophe, so opening the file runs nothing a customer or a merchant's integration typed.
     */
    public long exportCsv(String merchantId, Mode mode, PaymentFilter filter, Writer out) {
        long[] written = {0};
        try {
            CSVPrinter csv = CSVFormat.RFC4180.builder().setHeader(CSV_COLUMNS.toArray(String[]::new)).get()
                    .print(out);
            export(merchantId, mode, filter, row -> {
                try {
                    csv.printRecord(Stream.of(row.id(), row.createdAt().toString(), row.status().wire(),
                                    Currencies.major(row.amount(), row.currency()), row.currency(), row.methodType(),
                                    row.cardBrand(), row.cardLast4(), row.customerId(), row.customerEmail(),
                                    row.externalReference(), Currencies.major(row.refundedAmount(), row.currency()))
                            .map(PaymentSearch::inert));
                    written[0]++;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            csv.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return written[0];
    }

    /** The cell as a spreadsheet shows it without evaluating it: see {@link #exportCsv}. */
    static String inert(String cell) {
        if (cell == null || cell.isEmpty()) {
            return cell;
        }
        char first = cell.charAt(0);
        return first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r'
                ? "'" + cell : cell;
    }

    /** The ids of the customers with the filter's email (null: the filter has no email, so no customer is asked). */
    private List<String> customerIds(Caller caller, PaymentFilter filter) {
        return filter.customerEmail() == null ? null : customers.customerIdsByEmail(caller, filter.customerEmail());
    }

    private List<Row> withEmails(Caller caller, List<Row> rows) {
        List<String> ids = rows.stream().map(Row::customerId).filter(Objects::nonNull).distinct().toList();
        if (ids.isEmpty()) {
            return List.copyOf(rows);
        }
        Map<String, String> emails = customers.customerEmails(caller, ids);
        return rows.stream().map(r -> r.customerId() == null ? r : r.withEmail(emails.get(r.customerId()))).toList();
    }

    /**
     * The search's statement: {@link #SELECT} and one fixed fragment per part of the filter that is given, each
     * comparing with a bound value; after the cursor's position when there is one; {@code limit} rows (null: all).
     */
    static Statement statement(String merchantId, Mode mode, PaymentFilter f, List<String> customerIds,
                               Position after, Integer limit) {
        StringBuilder sql = new StringBuilder(SELECT);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("merchant", merchantId);
        params.put("mode", mode.wire());
        if (!f.statuses().isEmpty()) {
            sql.append(" and p.status = any(:statuses::text[])");
            params.put("statuses", f.statuses().stream().map(PaymentStatus::wire).sorted().toArray(String[]::new));
        }
        if (f.method() != null) {
            sql.append(" and p.payment_method_details ->> 'type' = :method");
            params.put("method", f.method().wire());
        }
        if (f.createdFrom() != null) {
            sql.append(" and p.created_at >= :createdFrom");
            params.put("createdFrom", f.createdFrom().atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (f.createdTo() != null) {
            sql.append(" and p.created_at < :createdBefore");
            params.put("createdBefore", f.createdTo().plusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (f.amountMin() != null) {
            sql.append(" and p.amount >= :amountMin");
            params.put("amountMin", f.amountMin());
        }
        if (f.amountMax() != null) {
            sql.append(" and p.amount <= :amountMax");
            params.put("amountMax", f.amountMax());
        }
        if (f.currency() != null) {
            sql.append(" and p.currency = :currency");
            params.put("currency", f.currency());
        }
        if (customerIds != null) {
            sql.append(" and p.customer_id = any(:customers::text[])");
            params.put("customers", customerIds.toArray(String[]::new));
        }
        if (f.last4() != null) {
            sql.append(" and p.payment_method_details -> 'card' ->> 'last4' = :last4");
            params.put("last4", f.last4());
        }
        if (f.externalReference() != null) {
            sql.append(" and p.external_reference = :externalReference");
            params.put("externalReference", f.externalReference());
        }
        if (f.id() != null) {
            sql.append(BY_ID.get(PaymentFilter.idPrefix(f.id()).orElseThrow()));
            params.put("id", f.id());
        }
        if (after != null) {
            sql.append(" and (p.created_at, p.id) < (:afterCreatedAt, :afterId)");
            params.put("afterCreatedAt", after.createdAt().atOffset(ZoneOffset.UTC));
            params.put("afterId", after.id());
        }
        sql.append(ORDER);
        if (limit != null) {
            sql.append(" limit :limit");
            params.put("limit", limit);
        }
        return new Statement(sql.toString(), params);
    }

    private static Row row(ResultSet rs, int i) throws SQLException {
        return new Row(rs.getString("id"), rs.getTimestamp("created_at").toInstant(),
                PaymentStatus.fromWire(rs.getString("status")), rs.getLong("amount"), rs.getString("currency"),
                rs.getString("method"), rs.getString("card_brand"), rs.getString("card_last4"),
                rs.getString("customer_id"), null, rs.getString("external_reference"), rs.getLong("paid_amount"),
                rs.getLong("refunded_amount"), rs.getLong("authorized_amount"), rs.getLong("voided_amount"));
    }
}
