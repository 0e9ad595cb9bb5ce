package io.tender.redemption;

import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.database.Answers;
import io.tender.database.RoundTrips;
import io.tender.database.Statement;
import io.tender.provider.ChangeVoucher;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherSource;
import io.tender.secrets.SealedColumn;
import io.tender.secrets.SealedColumns;
import io.tender.secrets.SecretBox;
import io.tender.settlement.LeasedRows;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code redemptions} table. Writes are conditional on the revision that was read, so two writers (a request
 * and the recovery job) can never both move one redemption. Voucher credentials and change vouchers are sealed.
 */
@Repository
class Redemptions implements SealedColumns {

    private static final TypeReference<List<Operation>> OPERATIONS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final RoundTrips trips;
    private final LeasedRows rows;
    private final JsonMapper json;
    private final SecretBox box;

    Redemptions(JdbcClient jdbc, RoundTrips trips, JsonMapper json, SecretBox box) {
        this.jdbc = jdbc;
        this.trips = trips;
        this.rows = new LeasedRows(jdbc, "redemptions");
        this.json = json;
        this.box = box;
    }

    /**
     * Inserts the redemption, and sends {@code with} (its events) in the same round trip; the caller runs this in
     * the transaction that claims its Idempotency-Key.
     */
    void insert(Redemption r, Duration lease, List<Statement> with) {
        trips.send(first(Statement.update(INSERT, params(r, lease)), with));
        r.written();
    }

    private static final String INSERT = """
            insert into redemptions (id, merchant_id, mode, type, status, version, amount, currency,
                reserved_amount, redeemed_amount, reversed_amount, source_masked, source_sealed,
                redemption_options, related_ids, metadata, external_reference, provider_reference,
                operations, change_voucher_sealed, last_error, idempotency_key, revision, lease_until,
                created_at, updated_at)
            values (:id, :merchant, :mode, :type, :status, :version, :amount, :currency,
                :reserved, :redeemed, :reversed, :sourceMasked::jsonb, :sourceSealed,
                :options::jsonb, :relatedIds::jsonb, :metadata::jsonb, :externalReference, :reference::jsonb,
                :operations::jsonb, :change, :lastError::jsonb, :idempotencyKey, 1, :lease,
                :createdAt, :updatedAt)""";

    /**
     * Writes the redemption's new state if nobody else wrote it since it was read, and sends {@code with} (its
     * events, the stored response) in the same round trip. {@code lease} keeps the recovery job away while the caller
     * goes on calling the provider; null releases the redemption. Throws {@link io.tender.settlement.StaleWrite} if another writer moved
     * it first: the caller's transaction then rolls back, {@code with} included.
     */
    void update(Redemption r, Duration lease, List<Statement> with) {
        Answers answers = trips.send(first(Statement.update(UPDATE, changingParams(r, lease)), with));
        rows.requireWritten(r.id(), answers.count(0));
        r.written();
    }

    private static final String UPDATE = """
            update redemptions set status = :status, version = :version, amount = :amount,
                currency = :currency, reserved_amount = :reserved, redeemed_amount = :redeemed,
                reversed_amount = :reversed, provider_reference = :reference::jsonb,
                operations = :operations::jsonb, change_voucher_sealed = :change,
                last_error = :lastError::jsonb, revision = revision + 1, lease_until = :lease,
                updated_at = :updatedAt
            where id = :id and revision = :revision""";

    private static List<Statement> first(Statement statement, List<Statement> then) {
        List<Statement> all = new ArrayList<>(then.size() + 1);
        all.add(statement);
        all.addAll(then);
        return all;
    }

    /** Lets the recovery job take the redemption as soon as it is old enough (its request gave up on it). */
    void release(Redemption r) {
        rows.release(r.id(), r.revision());
    }

    /**
     * Takes up to {@code limit} unfinished redemptions for the recovery job, on whichever instance gets there first:
     * drafts and redemptions with a pending operation untouched since {@code settledBefore}, and resting holds
     * untouched since {@code reservationsBefore}. Rows another instance holds are skipped, and the taken ones get a
     * lease so no one else works on them meanwhile.
     */
    List<Redemption> claimUnfinished(Instant settledBefore, Instant reservationsBefore, Duration lease, int limit) {
        return rows.claim("""
                        status in ('draft', 'reserved')
                        and ((updated_at < :settledBefore
                              and (status = 'draft' or operations @> '[{"status": "PENDING"}]'::jsonb
                                   or operations @> '[{"status": "UNKNOWN"}]'::jsonb))
                             or updated_at < :reservationsBefore)""",
                Map.of("settledBefore", settledBefore.atOffset(ZoneOffset.UTC),
                        "reservationsBefore", reservationsBefore.atOffset(ZoneOffset.UTC)),
                lease, limit, this::map);
    }

    Optional<Redemption> find(Caller caller, String id) {
        return jdbc.sql("select * from redemptions where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire())
                .query(this::map).optional();
    }

    Redemption get(Caller caller, String id) {
        return find(caller, id).orElseThrow(() -> new RedemptionRejection.RedemptionNotFound().thrown());
    }

    List<Redemption> list(Caller caller, ListQuery query, String status, String type, String externalReference) {
        return ListSql.from("select * from redemptions").ownedBy(caller).where("status", status).where("type", type)
                .where("external_reference", externalReference).page(jdbc, query, this::map);
    }

    /**
     * A page of the caller's redemptions for the dashboard, newest first ({@code created_at desc, id desc}) after
     * {@code after}: of {@code status} (null: any), and {@code search} (null: all) a {@code rdm_} id or an external
     * reference; {@code limit} rows.
     */
    List<Redemption> page(Caller caller, String status, String search, io.tender.api.Keyset after, int limit) {
        StringBuilder sql = new StringBuilder("select * from redemptions where merchant_id = :merchant and mode = :mode");
        Map<String, Object> p = new java.util.HashMap<>();
        p.put("merchant", caller.merchantId());
        p.put("mode", caller.modeWire());
        if (status != null) {
            sql.append(" and status = :status");
            p.put("status", status);
        }
        if (search != null) {
            sql.append(search.startsWith("rdm_") ? " and id = :search" : " and external_reference = :search");
            p.put("search", search);
        }
        if (after != null) {
            sql.append(" and (created_at, id) < (:afterCreatedAt, :afterId)");
            p.put("afterCreatedAt", after.createdAt().atOffset(ZoneOffset.UTC));
            p.put("afterId", after.id());
        }
        sql.append(" order by created_at desc, id desc limit :limit");
        p.put("limit", limit);
        return jdbc.sql(sql.toString()).params(p).query(this::map).list();
    }

    /** Every column, for the insert. */
    private Map<String, Object> params(Redemption r, Duration lease) {
        Map<String, Object> p = changingParams(r, lease);
        p.put("merchant", r.merchantId());
        p.put("mode", r.mode().wire());
        p.put("type", r.type().wire());
        p.put("sourceMasked", json.writeValueAsString(r.source().masked()));
        p.put("sourceSealed", box.seal(json.writeValueAsBytes(r.source().full()), sourceContext(r.id())));
        p.put("options", r.redemptionOptions() == null ? null : json.writeValueAsString(r.redemptionOptions()));
        p.put("relatedIds", json.writeValueAsString(r.relatedIds()));
        p.put("metadata", r.metadata() == null ? null : json.writeValueAsString(r.metadata()));
        p.put("externalReference", r.externalReference());
        p.put("idempotencyKey", r.idempotencyKey());
        p.put("createdAt", r.createdAt().atOffset(ZoneOffset.UTC));
        return p;
    }

    /**
     * The columns a transition can change, for the update. The source and the request's own fields never change
     * after the insert, so an update neither re-seals nor re-serialises them.
     */
    private Map<String, Object> changingParams(Redemption r, Duration lease) {
        Map<String, Object> p = LeasedRows.writeParams(r.id(), r.revision(), lease, r.updatedAt());
        p.put("status", r.status().wire());
        p.put("version", r.version());
        p.put("amount", r.resolvedAmount());
        p.put("currency", r.currency());
        p.put("reserved", r.reservedAmount());
        p.put("redeemed", r.redeemedAmount());
        p.put("reversed", r.reversedAmount());
        p.put("reference", r.providerReference() == null ? null : json.writeValueAsString(r.providerReference()));
        p.put("operations", json.writeValueAsString(r.operations()));
        p.put("change", r.changeVoucher() == null ? null
                : box.seal(json.writeValueAsBytes(r.changeVoucher()), changeContext(r.id())));
        p.put("lastError", r.lastError() == null ? null : json.writeValueAsString(r.lastError()));
        return p;
    }

    private Redemption map(ResultSet rs, int row) throws SQLException {
        String id = rs.getString("id");
        RedemptionType type = RedemptionType.fromWire(rs.getString("type")).orElseThrow();
        Map<String, String> sourceFields = json.readValue(
                box.open(rs.getBytes("source_sealed"), sourceContext(id)), STRINGS);
        byte[] change = rs.getBytes("change_voucher_sealed");
        ChangeVoucher changeVoucher = change == null ? null : json.readValue(
                box.open(change, changeContext(id)), ChangeVoucher.shapeOf(type));
        String options = rs.getString("redemption_options");
        String metadata = rs.getString("metadata");
        String reference = rs.getString("provider_reference");
        String lastError = rs.getString("last_error");
        long amount = rs.getLong("amount");
        Long resolved = rs.wasNull() ? null : amount;
        return new Redemption(id, rs.getString("merchant_id"), Mode.fromWire(rs.getString("mode")), type,
                VoucherSource.of(type, sourceFields), null,
                options == null ? null : (ObjectNode) json.readTree(options),
                json.readValue(rs.getString("related_ids"), STRING_LIST),
                metadata == null ? null : json.readValue(metadata, STRINGS),
                rs.getString("external_reference"), rs.getString("idempotency_key"),
                rs.getTimestamp("created_at").toInstant(), RedemptionStatus.fromWire(rs.getString("status")),
                rs.getInt("version"), resolved, rs.getString("currency"), nullableLong(rs, "reserved_amount"),
                nullableLong(rs, "redeemed_amount"), rs.getLong("reversed_amount"),
                reference == null ? null : json.readValue(reference, OBJECT),
                new ArrayList<>(json.readValue(rs.getString("operations"), OPERATIONS)), changeVoucher,
                lastError == null ? null : json.readValue(lastError, OperationError.class),
                rs.getTimestamp("updated_at").toInstant(), rs.getInt("revision"));
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("redemptions", "source_sealed", "id", Redemptions::sourceContext),
                SealedColumn.of("redemptions", "change_voucher_sealed", "id", Redemptions::changeContext));
    }

    /** Binds a sealed value to its redemption and field. */
    private static String sourceContext(String id) {
        return "redemption-source:" + id;
    }

    private static String changeContext(String id) {
        return "redemption-change:" + id;
    }
}
