package io.tender.subscription;

import io.tender.payment.Acceptance;
import io.tender.payment.MandatePayments;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code mandates} table. A mandate's row is locked ({@code FOR UPDATE}) by whoever charges or changes it, so that
 * the charges of one period are counted one at a time. What a period took is read from the payments that charged
 * the mandate, failed ones left out, through payments' {@link MandatePayments} (the payments table is theirs).
 */
@Repository
record Mandates(JdbcClient jdbc, NamedParameterJdbcTemplate batches, JsonMapper json, MandatePayments payments) {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };

    private static final String UPDATE = """
            update mandates set status = :status, payments_count = :payments,
                installments_charged = :installments, version = :version, updated_at = :updatedAt,
                cancelled_at = :cancelledAt
            where id = :id""";

    void insert(Mandate m) {
        Mandate.Terms t = m.fixed();
        Map<String, Object> p = changing(m);
        p.put("merchant", t.merchantId());
        p.put("mode", t.mode().wire());
        p.put("type", t.terms().type().name().toLowerCase());
        p.put("customer", t.customerId());
        p.put("method", t.paymentMethodId());
        p.put("details", json.writeValueAsString(t.paymentMethodDetails()));
        p.put("currency", t.currency());
        p.put("options", json.writeValueAsString(t.terms().wire()));
        p.put("acceptance", json.writeValueAsString(acceptance(t.acceptance())));
        p.put("firstPayment", t.firstPaymentId());
        p.put("subscription", t.subscriptionId());
        p.put("endsAt", m.endsAt() == null ? null : m.endsAt().atOffset(ZoneOffset.UTC));
        p.put("metadata", t.metadata() == null ? null : json.writeValueAsString(t.metadata()));
        p.put("createdAt", t.createdAt().atOffset(ZoneOffset.UTC));
        jdbc.sql("""
                        insert into mandates (id, merchant_id, mode, status, type, customer_id, payment_method_id,
                            payment_method_details, currency, options, acceptance, first_payment_id, subscription_id,
                            payments_count, installments_charged, ends_at, metadata, version, created_at, updated_at,
                            cancelled_at)
                        values (:id, :merchant, :mode, :status, :type, :customer, :method, :details::jsonb, :currency,
                            :options::jsonb, :acceptance::jsonb, :firstPayment, :subscription, :payments,
                            :installments, :endsAt, :metadata::jsonb, :version, :createdAt, :updatedAt, :cancelledAt)""")
                .params(p).update();
    }

    void update(Mandate m) {
        jdbc.sql(UPDATE).params(changing(m)).update();
    }

    /** Writes the mandates as {@link #update} does, in one round trip (a JDBC batch). */
    void updateAll(Collection<Mandate> changed) {
        if (!changed.isEmpty()) {
            batches.batchUpdate(UPDATE, changed.stream().map(this::changing).toArray(Map[]::new));
        }
    }

    Optional<Mandate> find(Caller caller, String id, boolean lock) {
        return jdbc.sql("select * from mandates where id = ? and merchant_id = ? and mode = ?"
                        + (lock ? " for update" : ""))
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    /** The mandate, or 404 {@code resource_not_found} for unknown ids and other merchants' and modes'. */
    Mandate get(Caller caller, String id, boolean lock) {
        return find(caller, id, lock).orElseThrow(() -> new SeriesRejection.MandateNotFound().thrown());
    }

    /** By id alone, not locked (a subscription's charge reads whether it is still active). */
    Mandate byId(String id) {
        return jdbc.sql("select * from mandates where id = ?").param(id).query(this::map).single();
    }

    /** By ids alone, not locked, by id (a claim reads the mandates of the periods it took in one query). */
    Map<String, Mandate> byIds(Collection<String> ids) {
        Map<String, Mandate> found = new HashMap<>();
        jdbc.sql("select * from mandates where id = any(?::text[])").param(ids.toArray(String[]::new))
                .query(this::map).list().forEach(m -> found.put(m.id(), m));
        return found;
    }

    /** By id alone, locked, for the flows that act for its own merchant (a charge's end, a subscription's). */
    Mandate lock(String id) {
        return jdbc.sql("select * from mandates where id = ? for update").param(id).query(this::map).single();
    }

    /** By ids alone, locked in the order of their ids (as every flow that locks several takes them), by id. */
    Map<String, Mandate> lockAll(Collection<String> ids) {
        Map<String, Mandate> found = new HashMap<>();
        jdbc.sql("select * from mandates where id = any(?::text[]) order by id for update")
                .param(ids.stream().distinct().toArray(String[]::new))
                .query(this::map).list().forEach(m -> found.put(m.id(), m));
        return found;
    }

    /** The active mandate a saved method is charged under, locked; empty when it has none. */
    Optional<Mandate> lockActiveOf(Caller caller, String paymentMethodId) {
        return jdbc.sql("""
                        select * from mandates where payment_method_id = ? and merchant_id = ? and mode = ?
                          and status = 'active' order by created_at desc limit 1 for update""")
                .params(paymentMethodId, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    /**
     * What the charges of the mandate dated from {@code start} to {@code end} (exclusive) add up to, the failed,
     * cancelled and expired ones left out (a draft or pending one may still succeed, so it counts).
     */
    Mandate.Usage usage(String mandateId, LocalDate start, LocalDate end) {
        var usage = payments.usage(mandateId, start, end);
        return new Mandate.Usage(usage.amount(), usage.count());
    }

    /**
     * What the mandate's charges took, for the rules of a new charge dated {@code date} (decisions §8), in one read
     * of its payments that did not fail (a draft or pending one may still succeed, so it counts): the period of the
     * period limit holding the date, the charges without the customer (read over all of them only for an installment
     * mandate, the one type that counts them), and whether one of those is dated {@code date}. The caller holds the
     * mandate's lock, so that concurrent charges each count the others.
     */
    Mandate.Taken taken(Mandate mandate, LocalDate date) {
        var period = mandate.schedule().period(date);
        boolean allCharges = mandate.terms().installments() != null;
        LocalDate from = allCharges ? null
                : period.map(p -> p.start().isBefore(date) ? p.start() : date).orElse(date);
        var taken = payments.taken(mandate.id(), date, period.map(MandateSchedule.Period::start).orElse(null),
                period.map(MandateSchedule.Period::end).orElse(null), from);
        return new Mandate.Taken(new Mandate.Usage(taken.period().amount(), taken.period().count()),
                taken.offSession(), taken.onDate());
    }

    List<Mandate> list(Caller caller, ListQuery query, String customer, String status) {
        return ListSql.from("select * from mandates").ownedBy(caller).where("customer_id", customer)
                .where("status", status).page(jdbc, query, this::map);
    }

    /**
     * Active mandates past their end, locked, skipping those another instance holds. A subscription's mandate whose
     * last period still waits for a retry, or is being charged, is not over yet: that period was due within its dates.
     */
    List<Mandate> lockEnded(Instant now, int limit) {
        return jdbc.sql("""
                        select * from mandates m where m.status = 'active' and m.ends_at <= ?
                          and not exists (select 1 from subscription_periods p where p.subscription_id = m.subscription_id
                                          and p.status in ('scheduled', 'retrying', 'charging'))
                        order by m.ends_at limit ? for update skip locked""")
                .params(now.atOffset(ZoneOffset.UTC), limit).query(this::map).list();
    }

    private Map<String, Object> acceptance(Acceptance a) {
        Map<String, Object> wire = new HashMap<>();
        wire.put("accepted_at", a.acceptedAt().toString());
        wire.put("ip_address", a.ipAddress());
        wire.put("user_agent", a.userAgent());
        return wire;
    }

    private Map<String, Object> changing(Mandate m) {
        Map<String, Object> p = new HashMap<>();
        p.put("id", m.id());
        p.put("status", m.status().wire());
        p.put("payments", m.paymentsCount());
        p.put("installments", m.installmentsCharged());
        p.put("version", m.version());
        p.put("updatedAt", m.updatedAt().atOffset(ZoneOffset.UTC));
        p.put("cancelledAt", m.cancelledAt() == null ? null : m.cancelledAt().atOffset(ZoneOffset.UTC));
        return p;
    }

    private Mandate map(ResultSet rs, int row) throws SQLException {
        var acceptance = json.readTree(rs.getString("acceptance"));
        String metadata = rs.getString("metadata");
        Timestamp cancelled = rs.getTimestamp("cancelled_at");
        var terms = new Mandate.Terms(rs.getString("id"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getString("customer_id"), rs.getString("payment_method_id"),
                json.readValue(rs.getString("payment_method_details"), OBJECT), rs.getString("currency"),
                MandateTerms.restore(json.readTree(rs.getString("options"))),
                new Acceptance(Instant.parse(acceptance.path("accepted_at").stringValue("")),
                        acceptance.path("ip_address").stringValue(null),
                        acceptance.path("user_agent").stringValue(null)),
                rs.getString("first_payment_id"), rs.getString("subscription_id"),
                metadata == null ? null : json.readValue(metadata, STRINGS), rs.getTimestamp("created_at").toInstant());
        return Mandate.restored(terms, Mandate.Status.fromWire(rs.getString("status")), rs.getInt("payments_count"),
                rs.getInt("installments_charged"), rs.getInt("version"), rs.getTimestamp("updated_at").toInstant(),
                cancelled == null ? null : cancelled.toInstant());
    }
}
