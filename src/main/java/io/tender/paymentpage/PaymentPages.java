package io.tender.paymentpage;

import io.tender.api.ApiException;
import io.tender.api.Keyset;
import io.tender.api.NotFound;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code payment_pages} table. A deleted page keeps its row ({@code deleted_at}) and is found only by id. */
@Repository
record PaymentPages(JdbcClient jdbc, JsonMapper json) {

    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<List<Long>> LONGS = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> TEXTS = new TypeReference<>() {
    };
    private static final TypeReference<List<PaymentPage.CustomField>> FIELDS = new TypeReference<>() {
    };
    /** Pages as the API lists them: not deleted, with the status a client sees ({@code expired} computed). */
    private static final String LISTED = """
            select * from (select *, case when status = 'active' and expires_at <= now() then 'expired' else status end
            as shown_status from payment_pages where deleted_at is null) pages""";

    void insert(PaymentPage p) {
        Map<String, Object> params = changing(p);
        params.put("merchant", p.merchantId());
        params.put("mode", p.mode().wire());
        params.put("currency", p.currency());
        params.put("account", p.account());
        params.put("createdAt", p.createdAt().atOffset(ZoneOffset.UTC));
        jdbc.sql("""
                        insert into payment_pages (id, merchant_id, mode, status, title, description, currency, amount,
                            amount_min, amount_max, amount_presets, return_url, requires_customer_details,
                            requires_delivery_details, custom_fields, account, visible_payment_methods,
                            external_reference, metadata, expires_at, created_at, updated_at)
                        values (:id, :merchant, :mode, :status, :title, :description, :currency, :amount, :min, :max,
                            :presets::jsonb, :returnUrl, :customer, :delivery, :fields::jsonb, :account,
                            :visible::jsonb, :externalReference, :metadata::jsonb, :expiresAt, :createdAt, :updatedAt)""")
                .params(params).update();
    }

    void update(PaymentPage p) {
        jdbc.sql("""
                        update payment_pages set status = :status, title = :title, description = :description,
                            amount = :amount, amount_min = :min, amount_max = :max, amount_presets = :presets::jsonb,
                            return_url = :returnUrl, requires_customer_details = :customer,
                            requires_delivery_details = :delivery, custom_fields = :fields::jsonb,
                            visible_payment_methods = :visible::jsonb, external_reference = :externalReference,
                            metadata = :metadata::jsonb, expires_at = :expiresAt, updated_at = :updatedAt
                        where id = :id""")
                .params(changing(p)).update();
    }

    void delete(PaymentPage p, Instant now) {
        jdbc.sql("update payment_pages set deleted_at = ? where id = ?").params(now.atOffset(ZoneOffset.UTC), p.id())
                .update();
    }

    /** The caller's page, not deleted; {@code lock} for a change. */
    Optional<PaymentPage> find(Caller caller, String id, boolean lock) {
        return jdbc.sql("select * from payment_pages where id = ? and merchant_id = ? and mode = ? and deleted_at is null"
                        + (lock ? " for update" : ""))
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    PaymentPage get(Caller caller, String id, boolean lock) {
        return find(caller, id, lock).orElseThrow(() -> new NotFound("payment page").thrown());
    }

    /** By id alone, deleted or not, for the public page and the checkout (which have no key). */
    Optional<PaymentPage> findById(String id) {
        return findById(id, false);
    }

    /** As {@link #findById(String)}; {@code share} locks the row against changes until the transaction ends. */
    Optional<PaymentPage> findById(String id, boolean share) {
        return jdbc.sql("select * from payment_pages where id = ?" + (share ? " for share" : "")).param(id)
                .query(this::map).optional();
    }

    /**
     * The caller's pages, newest first. Page ids are random (decisions §1), so the order is {@code created_at}, then
     * id; the cursor is the last page's id, read back to its position here (a deleted page's too, so a page deleted
     * while someone lists does not break their cursor). A cursor that is none of the caller's pages is a 400.
     */
    List<PaymentPage> list(Caller caller, ListQuery query, String status, String externalReference) {
        Keyset after = query.cursor() == null ? null : jdbc.sql("""
                        select created_at from payment_pages where id = ? and merchant_id = ? and mode = ?""")
                .params(query.cursor(), caller.merchantId(), caller.mode().wire())
                .query((rs, row) -> new Keyset(rs.getTimestamp("created_at").toInstant(), query.cursor())).optional()
                .orElseThrow(() -> ApiException.badRequest("cursor", "is not a cursor of this list"));
        return ListSql.from(LISTED).ownedBy(caller).where("shown_status", status)
                .where("external_reference", externalReference).pageByCreation(jdbc, query, after, this::map);
    }

    private Map<String, Object> changing(PaymentPage p) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", p.id());
        params.put("status", p.deactivated() ? "inactive" : "active");
        params.put("title", p.title());
        params.put("description", p.description());
        params.put("amount", p.amount());
        params.put("min", p.amountOptions() == null ? null : p.amountOptions().min());
        params.put("max", p.amountOptions() == null ? null : p.amountOptions().max());
        params.put("presets", p.amountOptions() == null ? null : json.writeValueAsString(p.amountOptions().presets()));
        params.put("returnUrl", p.returnUrl());
        params.put("customer", p.requiresCustomerDetails());
        params.put("delivery", p.requiresDeliveryDetails());
        params.put("fields", json.writeValueAsString(p.customFields()));
        params.put("visible", p.visiblePaymentMethods() == null ? null : json.writeValueAsString(p.visiblePaymentMethods()));
        params.put("externalReference", p.externalReference());
        params.put("metadata", p.metadata() == null ? null : json.writeValueAsString(p.metadata()));
        params.put("expiresAt", p.expiresAt() == null ? null : p.expiresAt().atOffset(ZoneOffset.UTC));
        params.put("updatedAt", p.updatedAt().atOffset(ZoneOffset.UTC));
        return params;
    }

    private PaymentPage map(ResultSet rs, int row) throws SQLException {
        Long amount = rs.getObject("amount", Long.class);
        Long min = rs.getObject("amount_min", Long.class);
        String visible = rs.getString("visible_payment_methods");
        String metadata = rs.getString("metadata");
        return new PaymentPage(rs.getString("id"), rs.getString("merchant_id"), Mode.fromWire(rs.getString("mode")),
                rs.getString("status").equals("inactive"), rs.getString("title"), rs.getString("description"),
                rs.getString("currency"), amount, min == null ? null : new PaymentPage.AmountOptions(min,
                rs.getLong("amount_max"), json.readValue(rs.getString("amount_presets"), LONGS)),
                rs.getString("return_url"), rs.getBoolean("requires_customer_details"),
                rs.getBoolean("requires_delivery_details"), json.readValue(rs.getString("custom_fields"), FIELDS),
                rs.getString("account"), visible == null ? null : json.readValue(visible, TEXTS),
                rs.getString("external_reference"), metadata == null ? null : json.readValue(metadata, STRINGS),
                instant(rs.getTimestamp("expires_at")), instant(rs.getTimestamp("deleted_at")),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }

    static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
