package io.tender.webhook;

import io.tender.api.NotFound;
import io.tender.api.ListQuery;
import io.tender.api.ListSql;
import io.tender.apiversion.ApiVersion;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.secrets.SealedColumn;
import io.tender.secrets.SealedColumns;
import io.tender.secrets.SecretBox;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code webhook_endpoints} table. Secrets are sealed, bound to the endpoint and to which secret they are. */
@Repository
record WebhookEndpoints(JdbcClient jdbc, SecretBox box) implements SealedColumns {
    void insert(WebhookEndpoint e) {
        jdbc.sql("""
                        insert into webhook_endpoints (id, merchant_id, mode, url, description, enabled_events, status,
                            disabled_reason, api_version, secret_sealed, previous_secret_sealed,
                            previous_secret_expires_at, created_at, updated_at)
                        values (:id, :merchant, :mode, :url, :description, string_to_array(:events, ' '), :status,
                            :disabledReason, :apiVersion, :secret, :previousSecret, :previousExpires, :createdAt,
                            :updatedAt)""")
                .params(params(e))
                .update();
    }

    /**
     * How many endpoints the merchant has in this mode, counted under a transaction-scoped lock on (merchant, mode)
     * that every create takes first: concurrent creates count one after another, so a limit checked on this count
     * holds whatever the timing.
     */
    int countLocked(String merchantId, Mode mode) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended(?, 0))")
                .params("webhook_endpoints:" + merchantId + ":" + mode.wire())
                .query((rs, row) -> 0).single();
        return jdbc.sql("select count(*) from webhook_endpoints where merchant_id = ? and mode = ?")
                .params(merchantId, mode.wire())
                .query(Integer.class).single();
    }

    void update(WebhookEndpoint e) {
        jdbc.sql("""
                        update webhook_endpoints set url = :url, description = :description,
                            enabled_events = string_to_array(:events, ' '), status = :status,
                            disabled_reason = :disabledReason, api_version = :apiVersion, secret_sealed = :secret,
                            previous_secret_sealed = :previousSecret, previous_secret_expires_at = :previousExpires,
                            updated_at = :updatedAt
                        where id = :id""")
                .params(params(e))
                .update();
    }

    boolean delete(Caller caller, String id) {
        return jdbc.sql("delete from webhook_endpoints where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire())
                .update() == 1;
    }

    /** The endpoint, locked for the rest of the transaction (PATCH and rotation read, change, write). */
    WebhookEndpoint getForUpdate(Caller caller, String id) {
        return jdbc.sql("select * from webhook_endpoints where id = ? and merchant_id = ? and mode = ? for update")
                .params(id, caller.merchantId(), caller.mode().wire())
                .query(this::map).optional()
                .orElseThrow(() -> new NotFound("webhook endpoint").thrown());
    }

    Optional<WebhookEndpoint> find(Caller caller, String id) {
        return jdbc.sql("select * from webhook_endpoints where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire())
                .query(this::map).optional();
    }

    WebhookEndpoint get(Caller caller, String id) {
        return find(caller, id).orElseThrow(() -> new NotFound("webhook endpoint").thrown());
    }

    /** For the dispatcher, which works for every merchant. */
    Optional<WebhookEndpoint> find(String id) {
        return jdbc.sql("select * from webhook_endpoints where id = ?").params(id).query(this::map).optional();
    }

    List<WebhookEndpoint> list(Caller caller, ListQuery query) {
        return ListSql.from("select * from webhook_endpoints").ownedBy(caller).page(jdbc, query, this::map);
    }

    /** The enabled endpoints of a merchant and mode that subscribe to this event type. */
    List<String> subscribedTo(String merchantId, Mode mode, String type) {
        return jdbc.sql("""
                        select id from webhook_endpoints
                        where merchant_id = ? and mode = ? and status = 'enabled'
                          and (? = any(enabled_events) or '*' = any(enabled_events))
                        order by id""")
                .params(merchantId, mode.wire(), type)
                .query(String.class).list();
    }

    /** The receiver answered 410 Gone: it wants no more events. */
    void disableAsGone(String id) {
        jdbc.sql("""
                        update webhook_endpoints set status = 'disabled', disabled_reason = ?, updated_at = now()
                        where id = ? and status = 'enabled'""")
                .params(WebhookEndpoint.ENDPOINT_GONE, id)
                .update();
    }

    private Map<String, Object> params(WebhookEndpoint e) {
        var p = new HashMap<String, Object>();
        p.put("id", e.id());
        p.put("merchant", e.merchantId());
        p.put("mode", e.mode().wire());
        p.put("url", e.url());
        p.put("description", e.description());
        // Event types contain no spaces (they are checked against the catalogue), so a space-joined list is safe.
        p.put("events", String.join(" ", e.enabledEvents()));
        p.put("status", e.status().wire());
        p.put("disabledReason", e.disabledReason());
        p.put("apiVersion", e.apiVersion().wire());
        p.put("secret", seal(e.id(), "current", e.secret()));
        p.put("previousSecret", e.previousSecret() == null ? null : seal(e.id(), "previous", e.previousSecret()));
        p.put("previousExpires", e.previousSecretExpiresAt() == null ? null
                : e.previousSecretExpiresAt().atOffset(ZoneOffset.UTC));
        p.put("createdAt", e.createdAt().atOffset(ZoneOffset.UTC));
        p.put("updatedAt", e.updatedAt().atOffset(ZoneOffset.UTC));
        return p;
    }

    private byte[] seal(String id, String which, String secret) {
        return box.seal(secret.getBytes(StandardCharsets.UTF_8), context(id, which));
    }

    private String open(String id, String which, byte[] sealed) {
        return new String(box.open(sealed, context(id, which)), StandardCharsets.UTF_8);
    }

    private WebhookEndpoint map(ResultSet rs, int row) throws SQLException {
        String id = rs.getString("id");
        Array events = rs.getArray("enabled_events");
        byte[] previous = rs.getBytes("previous_secret_sealed");
        Timestamp previousExpires = rs.getTimestamp("previous_secret_expires_at");
        return new WebhookEndpoint(id, rs.getString("merchant_id"), Mode.fromWire(rs.getString("mode")),
                rs.getString("url"), rs.getString("description"), Arrays.asList((String[]) events.getArray()),
                WebhookEndpoint.Status.fromWire(rs.getString("status")), rs.getString("disabled_reason"),
                ApiVersion.of(rs.getString("api_version")), open(id, "current", rs.getBytes("secret_sealed")),
                previous == null ? null : open(id, "previous", previous),
                previousExpires == null ? null : previousExpires.toInstant(),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("webhook_endpoints", "secret_sealed", "id", id -> context(id, "current")),
                SealedColumn.of("webhook_endpoints", "previous_secret_sealed", "id", id -> context(id, "previous")));
    }

    private static String context(String id, String which) {
        return "webhook-secret:" + which + ":" + id;
    }
}
