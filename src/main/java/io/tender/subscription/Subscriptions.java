package io.tender.subscription;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Date;
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
 * The {@code subscriptions} table and its {@code subscription_periods}. A subscription's row is locked
 * ({@code FOR UPDATE}) by whoever moves it; a period row is claimed by the scheduler of one instance with
 * {@code FOR UPDATE SKIP LOCKED}, and its status leaves {@code scheduled}/{@code retrying} in that same transaction,
 * so no other instance ever takes it again for the same attempt.
 */
@Repository
record Subscriptions(JdbcClient jdbc, NamedParameterJdbcTemplate batches, JsonMapper json) {

    private static final String UPDATE_PERIOD = """
            update subscription_periods set status = :status, attempts = :attempts,
                retries_left = :retriesLeft, due_at = :dueAt, notice_at = :noticeAt,
                first_declined_on = :firstDeclined, payment_id = :payment, updated_at = now()
            where subscription_id = :subscription and period = :period""";

    // ---- subscriptions ------------------------------------------------------------------------------------------

    void insert(Subscription s) {
        Subscription.Terms t = s.fixed();
        Map<String, Object> p = changing(s);
        p.put("merchant", t.merchantId());
        p.put("mode", t.mode().wire());
        p.put("mandate", t.mandateId());
        p.put("customer", t.customerId());
        p.put("currency", t.currency());
        p.put("options", json.writeValueAsString(t.terms().wire()));
        p.put("anchor", t.firstPaymentDate());
        p.put("firstPayment", t.firstPaymentId());
        p.put("createdAt", t.createdAt().atOffset(ZoneOffset.UTC));
        jdbc.sql("""
                        insert into subscriptions (id, merchant_id, mode, status, mandate_id, customer_id, currency,
                            options, anchor_date, first_payment_id, latest_payment_id, clock_date,
                            current_period_start, current_period_end, next_charge_at, version, created_at, updated_at,
                            cancelled_at)
                        values (:id, :merchant, :mode, :status, :mandate, :customer, :currency, :options::jsonb,
                            :anchor, :firstPayment, :latestPayment, :clock, :periodStart, :periodEnd, :nextCharge,
                            :version, :createdAt, :updatedAt, :cancelledAt)""")
                .params(p).update();
    }

    private static final String UPDATE = """
            update subscriptions set status = :status, latest_payment_id = :latestPayment,
                clock_date = :clock, current_period_start = :periodStart,
                current_period_end = :periodEnd, next_charge_at = :nextCharge, version = :version,
                updated_at = :updatedAt, cancelled_at = :cancelledAt
            where id = :id""";

    void update(Subscription s) {
        jdbc.sql(UPDATE).params(changing(s)).update();
    }

    /** Writes the subscriptions as {@link #update} does, in one round trip (a JDBC batch). */
    void updateAll(Collection<Subscription> changed) {
        if (!changed.isEmpty()) {
            batches.batchUpdate(UPDATE, changed.stream().map(this::changing).toArray(Map[]::new));
        }
    }

    Optional<Subscription> find(Caller caller, String id, boolean lock) {
        return jdbc.sql("select * from subscriptions where id = ? and merchant_id = ? and mode = ?"
                        + (lock ? " for update" : ""))
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    /** The subscription, or 404 {@code resource_not_found} for unknown ids and other merchants' and modes'. */
    Subscription get(Caller caller, String id, boolean lock) {
        return find(caller, id, lock).orElseThrow(() -> new SeriesRejection.SubscriptionNotFound().thrown());
    }

    /** By id alone, for the flows that act for its own merchant (not locked: its status may move meanwhile). */
    Subscription find(String id) {
        return jdbc.sql("select * from subscriptions where id = ?").param(id).query(this::map).single();
    }

    /**
     * By ids alone, each locked unless another transaction holds it (a cancel or resume in progress), by id: a held
     * one is missing, and the claim leaves its period for the next run rather than wait while it holds other rows.
     */
    Map<String, Subscription> lockAllUnlessHeld(Collection<String> ids) {
        Map<String, Subscription> found = new HashMap<>();
        jdbc.sql("select * from subscriptions where id = any(?::text[]) order by id for update skip locked")
                .param(ids.stream().distinct().toArray(String[]::new))
                .query(this::map).list().forEach(s -> found.put(s.id(), s));
        return found;
    }

    /** A period whose charge could not be started is tried again at {@code at}, after the others. */
    void postpone(String subscriptionId, int period, Instant at) {
        jdbc.sql("update subscription_periods set due_at = ?, updated_at = now() where subscription_id = ? and period = ?")
                .params(at.atOffset(ZoneOffset.UTC), subscriptionId, period).update();
    }

    /** By ids alone, locked in the order of their ids (after their mandates, as every flow takes them), by id. */
    Map<String, Subscription> lockAll(Collection<String> ids) {
        Map<String, Subscription> found = new HashMap<>();
        jdbc.sql("select * from subscriptions where id = any(?::text[]) order by id for update")
                .param(ids.stream().distinct().toArray(String[]::new))
                .query(this::map).list().forEach(s -> found.put(s.id(), s));
        return found;
    }

    /** By id alone, locked, for the flows that act for its own merchant. */
    Subscription lock(String id) {
        return jdbc.sql("select * from subscriptions where id = ? for update").param(id).query(this::map).single();
    }

    /** Its test clock's date, if it was ever advanced. */
    Optional<LocalDate> clockDate(String id) {
        return jdbc.sql("select clock_date from subscriptions where id = ?").param(id)
                .query((rs, i) -> date(rs, "clock_date")).list().stream().filter(java.util.Objects::nonNull)
                .findFirst();
    }

    List<Subscription> list(Caller caller, ListQuery query, String customer, String status) {
        return ListSql.from("select * from subscriptions").ownedBy(caller).where("customer_id", customer)
                .where("status", status).page(jdbc, query, this::map);
    }

    // ---- periods ------------------------------------------------------------------------------------------------

    private static final String INSERT_PERIOD = """
            insert into subscription_periods (subscription_id, period, merchant_id, mode, charge_date,
                amount, status, attempts, retries_left, due_at, notice_at, first_declined_on, payment_id,
                updated_at)
            values (:subscription, :period, :merchant, :mode, :chargeDate, :amount, :status, :attempts,
                :retriesLeft, :dueAt, :noticeAt, :firstDeclined, :payment, now())""";

    void insertPeriod(Subscription s, Subscription.Period p) {
        jdbc.sql(INSERT_PERIOD).params(inserting(s, p)).update();
    }

    /** A new period and its subscription. */
    record NewPeriod(Subscription subscription, Subscription.Period period) {
    }

    /** Inserts the periods as {@link #insertPeriod} does, in one round trip (a JDBC batch). */
    void insertPeriods(List<NewPeriod> periods) {
        if (!periods.isEmpty()) {
            batches.batchUpdate(INSERT_PERIOD, periods.stream().map(p -> inserting(p.subscription(), p.period()))
                    .toArray(Map[]::new));
        }
    }

    private static Map<String, Object> inserting(Subscription s, Subscription.Period p) {
        Map<String, Object> params = period(s.id(), p);
        params.put("merchant", s.fixed().merchantId());
        params.put("mode", s.fixed().mode().wire());
        params.put("chargeDate", p.chargeDate());
        params.put("amount", p.amount());
        return params;
    }

    void updatePeriod(String subscriptionId, Subscription.Period p) {
        jdbc.sql(UPDATE_PERIOD).params(period(subscriptionId, p)).update();
    }

    /** A period of a subscription as it is to be written. */
    record PeriodOf(String subscriptionId, Subscription.Period period) {
    }

    /** Writes the periods as {@link #updatePeriod} does, in one round trip (a JDBC batch). */
    void updatePeriods(List<PeriodOf> periods) {
        if (!periods.isEmpty()) {
            batches.batchUpdate(UPDATE_PERIOD, periods.stream().map(p -> period(p.subscriptionId(), p.period()))
                    .toArray(Map[]::new));
        }
    }

    Subscription.Period period(String subscriptionId, int number) {
        return jdbc.sql("select * from subscription_periods where subscription_id = ? and period = ?")
                .params(subscriptionId, number).query(Subscriptions::mapPeriod).single();
    }

    /** The periods named, by subscription and number. */
    Map<PeriodKey, Subscription.Period> periods(List<PeriodKey> keys) {
        Map<PeriodKey, Subscription.Period> found = new HashMap<>();
        jdbc.sql("""
                        select * from subscription_periods where (subscription_id, period) in
                          (select * from unnest(?::text[], ?::int[]))""")
                .params(keys.stream().map(PeriodKey::subscriptionId).toArray(String[]::new),
                        keys.stream().map(PeriodKey::period).toArray(Integer[]::new))
                .query((rs, i) -> Map.entry(new PeriodKey(rs.getString("subscription_id"), rs.getInt("period")),
                        mapPeriod(rs, i))).list().forEach(e -> found.put(e.getKey(), e.getValue()));
        return found;
    }

    /** A period by its subscription and number. */
    record PeriodKey(String subscriptionId, int period) {
    }

    /** Its periods, the latest first. */
    List<Subscription.Period> periods(String subscriptionId) {
        return jdbc.sql("select * from subscription_periods where subscription_id = ? order by period desc")
                .param(subscriptionId).query(Subscriptions::mapPeriod).list();
    }

    /** Its oldest period that failed for good, locked: what a resume charges. */
    Optional<Subscription.Period> lockOldestFailed(String subscriptionId) {
        return jdbc.sql("""
                        select * from subscription_periods where subscription_id = ? and status = 'failed'
                        order by period limit 1 for update""")
                .param(subscriptionId).query(Subscriptions::mapPeriod).optional();
    }

    /** Its periods waiting to be charged (scheduled or retrying), locked: cancelled with it. */
    List<Subscription.Period> lockOpen(String subscriptionId) {
        return jdbc.sql("""
                        select * from subscription_periods where subscription_id = ?
                          and status in ('scheduled', 'retrying') for update""")
                .param(subscriptionId).query(Subscriptions::mapPeriod).list();
    }

    /** A claimed period and the subscription it belongs to. */
    record Due(String subscriptionId, Subscription.Period period) {
    }

    /**
     * Takes up to {@code limit} periods of {@code modes} (those with a processor) whose charge is due by {@code now}
     * and whose notice has gone, oldest first, skipping the rows another instance holds; {@code subscriptionId}
     * narrows it to one (a test clock, a resume). The caller moves each out of {@code scheduled}/{@code retrying} in
     * the same transaction, or postpones it.
     */
    List<Due> lockDueCharges(Instant now, String subscriptionId, int limit, List<String> modes) {
        return jdbc.sql("""
                        select * from subscription_periods
                        where status in ('scheduled', 'retrying') and due_at <= :now and notice_at is null
                          and mode = any(cast(:modes as text[]))
                          and (cast(:subscription as text) is null or subscription_id = :subscription)
                        order by due_at, subscription_id, period limit :limit for update skip locked""")
                .param("now", now.atOffset(ZoneOffset.UTC)).param("subscription", subscriptionId)
                .param("limit", limit).param("modes", modes.toArray(String[]::new))
                .query((rs, i) -> new Due(rs.getString("subscription_id"), mapPeriod(rs, i))).list();
    }

    /** As {@link #lockDueCharges}, for the periods whose notice is due. */
    List<Due> lockDueNotices(Instant now, String subscriptionId, int limit) {
        return jdbc.sql("""
                        select * from subscription_periods
                        where notice_at <= :now and status in ('scheduled', 'retrying')
                          and (cast(:subscription as text) is null or subscription_id = :subscription)
                        order by notice_at, subscription_id, period limit :limit for update skip locked""")
                .param("now", now.atOffset(ZoneOffset.UTC)).param("subscription", subscriptionId)
                .param("limit", limit)
                .query((rs, i) -> new Due(rs.getString("subscription_id"), mapPeriod(rs, i))).list();
    }

    /**
     * The earliest work of the subscription that a test clock must see finished before it moves past its date: a
     * notice or charge not yet run ({@code at}: when it is due), or a charge in flight ({@code charging}, {@code at}:
     * the date it was due).
     */
    record OpenWork(Instant at, boolean charging, String paymentId) {
    }

    Optional<OpenWork> nextOpen(String subscriptionId) {
        return jdbc.sql("""
                        select case when status = 'charging' then due_at
                                    else least(coalesce(notice_at, due_at), due_at) end as at,
                               status = 'charging' as charging, payment_id
                        from subscription_periods
                        where subscription_id = ? and status in ('scheduled', 'retrying', 'charging')
                        order by at, period limit 1""")
                .param(subscriptionId)
                .query((rs, i) -> new OpenWork(instant(rs, "at"), rs.getBoolean("charging"),
                        rs.getBoolean("charging") ? rs.getString("payment_id") : null))
                .optional();
    }

    /**
     * Holds the subscription's test clock for the advance {@code holder} for {@code lease} (decisions §8: one advance
     * at a time), or renews its hold; false when another advance holds it. The times are the database's, so that
     * instances whose clocks differ agree.
     */
    boolean holdClock(String id, String holder, java.time.Duration lease) {
        return jdbc.sql("""
                        update subscriptions set clock_held_by = :holder,
                            clock_held_until = now() + make_interval(secs => :seconds)
                        where id = :id
                          and (clock_held_until is null or clock_held_until < now() or clock_held_by = :holder)""")
                .param("holder", holder).param("seconds", lease.toSeconds()).param("id", id).update() == 1;
    }

    /** Ends the hold of the advance {@code holder}, if it still has it. */
    void releaseClock(String id, String holder) {
        jdbc.sql("update subscriptions set clock_held_by = null, clock_held_until = null"
                + " where id = ? and clock_held_by = ?").params(id, holder).update();
    }

    private static Map<String, Object> period(String subscriptionId, Subscription.Period p) {
        Map<String, Object> params = new HashMap<>();
        params.put("subscription", subscriptionId);
        params.put("period", p.number());
        params.put("status", p.status().wire());
        params.put("attempts", p.attempts());
        params.put("retriesLeft", p.retriesLeft());
        params.put("dueAt", p.dueAt().atOffset(ZoneOffset.UTC));
        params.put("noticeAt", p.noticeAt() == null ? null : p.noticeAt().atOffset(ZoneOffset.UTC));
        params.put("firstDeclined", p.firstDeclinedOn());
        params.put("payment", p.paymentId());
        return params;
    }

    private Map<String, Object> changing(Subscription s) {
        Map<String, Object> p = new HashMap<>();
        p.put("id", s.id());
        p.put("status", s.status().wire());
        p.put("latestPayment", s.latestPaymentId());
        p.put("clock", s.clockDate());
        p.put("periodStart", s.currentPeriodStart());
        p.put("periodEnd", s.currentPeriodEnd());
        p.put("nextCharge", s.nextChargeAt() == null ? null : s.nextChargeAt().atOffset(ZoneOffset.UTC));
        p.put("version", s.version());
        p.put("updatedAt", s.updatedAt().atOffset(ZoneOffset.UTC));
        p.put("cancelledAt", s.cancelledAt() == null ? null : s.cancelledAt().atOffset(ZoneOffset.UTC));
        return p;
    }

    private Subscription map(ResultSet rs, int row) throws SQLException {
        var terms = new Subscription.Terms(rs.getString("id"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getString("mandate_id"), rs.getString("customer_id"),
                rs.getString("currency"), SubscriptionTerms.restore(json.readTree(rs.getString("options"))),
                rs.getDate("anchor_date").toLocalDate(), rs.getString("first_payment_id"),
                rs.getTimestamp("created_at").toInstant());
        return Subscription.restored(terms, Subscription.Status.fromWire(rs.getString("status")),
                rs.getString("latest_payment_id"), date(rs, "clock_date"), date(rs, "current_period_start"),
                date(rs, "current_period_end"), instant(rs, "next_charge_at"), rs.getInt("version"),
                rs.getTimestamp("updated_at").toInstant(), instant(rs, "cancelled_at"));
    }

    private static Subscription.Period mapPeriod(ResultSet rs, int row) throws SQLException {
        return new Subscription.Period(rs.getInt("period"), rs.getDate("charge_date").toLocalDate(),
                rs.getLong("amount"), Subscription.PeriodStatus.fromWire(rs.getString("status")),
                rs.getInt("attempts"), rs.getInt("retries_left"), rs.getTimestamp("due_at").toInstant(),
                instant(rs, "notice_at"), date(rs, "first_declined_on"), rs.getString("payment_id"));
    }

    private static LocalDate date(ResultSet rs, String column) throws SQLException {
        Date date = rs.getDate(column);
        return date == null ? null : date.toLocalDate();
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
