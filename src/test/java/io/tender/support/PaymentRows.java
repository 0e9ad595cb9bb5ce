package io.tender.support;

import io.tender.api.Ids;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Payments, customers and refunds written straight into their tables for the tests of what reads them (the payment
 * search, the dashboard's Payments page): those read rows,
 * and a row of every shape is quicker to write than to pay for. Card details are as the service stores them (scheme,
 * type and last4 only), never a card number.
 */
public final class PaymentRows {

    private final JdbcClient jdbc;

    public PaymentRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A card payment of 100.00 ZAR that succeeded, changed by {@code change} (keys are the insert's parameters). */
    public String payment(String merchant, Mode mode, Instant createdAt, Consumer<Map<String, Object>> change) {
        Map<String, Object> row = new HashMap<>();
        row.put("id", Ids.newId("pay_"));
        row.put("merchant", merchant);
        row.put("mode", mode.wire());
        row.put("status", "succeeded");
        row.put("amount", 10000L);
        row.put("currency", "ZAR");
        row.put("details", card("visa", "1881"));
        row.put("externalReference", null);
        row.put("customer", null);
        row.put("session", null);
        row.put("mandate", null);
        row.put("subscription", null);
        row.put("paymentMethod", null);
        row.put("obligation", null);
        row.put("refunded", 0L);
        change.accept(row);
        row.put("createdAt", createdAt.atOffset(ZoneOffset.UTC));
        jdbc.sql("""
                        insert into payments (id, merchant_id, mode, status, amount, currency, paid_amount,
                            authorized_amount, payment_method_details, external_reference, customer_id,
                            payment_session_id, mandate_id, subscription_id, payment_method_id, obligation_id,
                            refunded_amount, created_at, updated_at)
                        values (:id, :merchant, :mode, :status, :amount, :currency,
                            case when :status = 'succeeded' then :amount else 0 end,
                            case when :status = 'succeeded' then :amount else 0 end, :details::jsonb,
                            :externalReference, :customer, :session, :mandate, :subscription, :paymentMethod,
                            :obligation, :refunded, :createdAt, :createdAt)""")
                .params(row).update();
        return (String) row.get("id");
    }

    public static String card(String scheme, String last4) {
        return "{\"type\": \"card\", \"card\": {\"type\": \"credit\", \"scheme\": \"" + scheme + "\", \"last4\": \""
                + last4 + "\", \"exp_month\": 12, \"exp_year\": 2030}}";
    }

    public static String bank(String bank) {
        return "{\"type\": \"pay_by_bank\", \"pay_by_bank\": {\"bank\": \"" + bank + "\"}}";
    }

    /** A billing customer of the merchant with this email. */
    public String customer(String merchant, Mode mode, String email) {
        String id = Ids.newId("bcus_");
        Instant now = Instant.now();
        jdbc.sql("""
                        insert into billing_customers (id, merchant_id, mode, external_reference, obligation_id, name,
                            email, created_at, updated_at)
                        values (?, ?, ?, ?, ?, 'Search Customer', ?, ?, ?)""")
                .params(id, merchant, mode.wire(), id, Ids.newId("ob_"), email, now.atOffset(ZoneOffset.UTC),
                        now.atOffset(ZoneOffset.UTC))
                .update();
        return id;
    }

    /** A succeeded refund of part of the payment. */
    public String refund(String merchant, Mode mode, String paymentId) {
        String id = Ids.newId("rfd_");
        var now = Instant.now().atOffset(ZoneOffset.UTC);
        jdbc.sql("""
                        insert into refunds (id, merchant_id, mode, payment_id, amount, currency, status, call_status,
                            processor_key, authorization_key, created_at, updated_at)
                        values (?, ?, ?, ?, 100, 'ZAR', 'succeeded', 'succeeded', ?, ?, ?, ?)""")
                .params(id, merchant, mode.wire(), paymentId, id, id, now, now).update();
        return id;
    }
}
