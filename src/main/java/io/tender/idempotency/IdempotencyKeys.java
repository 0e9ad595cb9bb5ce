package io.tender.idempotency;

import io.tender.api.ApiException;
import io.tender.api.ProblemCode;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.database.Statement;
import io.tender.secrets.HashKeys;
import io.tender.secrets.KeyedHash;
import io.tender.secrets.SealedColumn;
import io.tender.secrets.SealedColumns;
import io.tender.secrets.SecretBox;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code idempotency_keys} table. {@link #claim} must run inside the transaction that makes the request's first
 * change, and {@link #complete} inside the one that makes its last, so a key is never claimed without its effect
 * nor completed without it. Stored responses are sealed: a redemption's response carries a change voucher PIN.
 */
@Repository
public class IdempotencyKeys implements SealedColumns {

    public static final Duration WINDOW = Duration.ofHours(24);

    /** The outcome of claiming a key for a request. */
    public sealed interface Claim {
        /** This request owns the key now and must run. */
        record Claimed() implements Claim {
        }

        /** The key completed earlier with this response. */
        record Replay(StoredResponse response) implements Claim {
        }

        /** The key was used for another method, path, API version or body. */
        record Mismatch() implements Claim {
        }

        /** The first request with this key has not finished. */
        record InFlight(String resourceId) implements Claim {
        }
    }

    private final JdbcClient jdbc;
    private final SecretBox box;
    private final KeyedHash bodyHash;

    IdempotencyKeys(JdbcClient jdbc, SecretBox box, HashKeys hashKeys) {
        this.jdbc = jdbc;
        this.box = box;
        // The body holds a voucher PIN; a plain digest of it could be searched for PINs by anyone reading the table.
        this.bodyHash = hashKeys.hash("idempotency-body/v1");
    }

    /** Header rule of the spec: 1 to 200 characters. */
    public static void validate(String key) {
        if (key != null && (key.isEmpty() || key.length() > 200)) {
            throw ApiException.badRequest("Idempotency-Key", "must be 1 to 200 characters");
        }
    }

    /**
     * Claims the key for this request, or says why not. A concurrent claim of the same key waits on the row until
     * the first transaction ends. A key older than the window is forgotten and taken over.
     */
    public Claim claim(Caller caller, String key, RequestFingerprint request, String resourceId) {
        Instant now = Timestamps.now();
        int claimed = jdbc.sql("""
                        insert into idempotency_keys
                            (merchant_id, mode, idempotency_key, method, path, api_version, body_hash, state,
                             resource_id, created_at)
                        values (:merchant, :mode, :key, :method, :path, :version, :hash, 'started', :resource, :now)
                        on conflict (merchant_id, mode, idempotency_key) do update set
                            method = excluded.method, path = excluded.path, api_version = excluded.api_version,
                            body_hash = excluded.body_hash,
                            state = 'started', resource_id = excluded.resource_id, response_status = null,
                            response_type = null, response_body = null, created_at = excluded.created_at,
                            completed_at = null
                        where idempotency_keys.created_at < :expired and idempotency_keys.state = 'completed'""")
                .param("merchant", caller.merchantId()).param("mode", caller.mode().wire()).param("key", key)
                .param("method", request.method()).param("path", request.path())
                .param("version", request.apiVersion()).param("hash", stored(request.bodyHash()))
                .param("resource", resourceId)
                .param("now", now.atOffset(ZoneOffset.UTC))
                .param("expired", now.minus(WINDOW).atOffset(ZoneOffset.UTC))
                .update();
        if (claimed == 1) {
            return new Claim.Claimed();
        }
        return jdbc.sql("""
                        select method, path, api_version, body_hash, state, resource_id, response_status,
                            response_type, response_body
                        from idempotency_keys where merchant_id = ? and mode = ? and idempotency_key = ?""")
                .params(caller.merchantId(), caller.mode().wire(), key)
                .query((rs, i) -> {
                    if (!request.method().equals(rs.getString("method")) || !request.path().equals(rs.getString("path"))
                            || !request.apiVersion().equals(rs.getString("api_version"))
                            || !java.security.MessageDigest.isEqual(stored(request.bodyHash()), rs.getBytes("body_hash"))) {
                        return (Claim) new Claim.Mismatch();
                    }
                    if ("started".equals(rs.getString("state"))) {
                        return new Claim.InFlight(rs.getString("resource_id"));
                    }
                    byte[] body = box.open(rs.getBytes("response_body"), context(caller, key));
                    return new Claim.Replay(new StoredResponse(rs.getInt("response_status"),
                            rs.getString("response_type"), body, true));
                })
                .optional()
                // The row went away between the two statements (purged): treat it as in flight; a retry claims it.
                .orElseGet(() -> new Claim.InFlight(null));
    }

    private byte[] stored(byte[] digest) {
        return bodyHash.of(java.util.HexFormat.of().formatHex(digest));
    }

    /** Turns a claim's outcome into the response or the error the client gets. */
    public static Optional<StoredResponse> replayOrThrow(Claim claim) {
        return switch (claim) {
            case Claim.Claimed c -> Optional.empty();
            case Claim.Replay r -> Optional.of(r.response());
            case Claim.Mismatch m -> throw new ApiException(ProblemCode.IDEMPOTENCY_CONFLICT,
                    "This Idempotency-Key was already used with a different method, path, API version or body.");
            case Claim.InFlight f -> throw new ApiException(ProblemCode.CONFLICT, 409,
                    "A request with this Idempotency-Key is still in progress. Retry shortly.", List.of(),
                    Map.of("Retry-After", "1"));
        };
    }

    public void complete(Caller caller, String key, StoredResponse response) {
        complete(caller.merchantId(), caller.mode().wire(), key, response);
    }

    public void complete(String merchantId, String mode, String key, StoredResponse response) {
        Statement completing = completing(merchantId, mode, key, response);
        jdbc.sql(completing.sql()).params(completing.args()).update();
    }

    /** The statement of {@link #complete}, for a caller that sends it with others in one round trip. */
    public Statement completing(Caller caller, String key, StoredResponse response) {
        return completing(caller.merchantId(), caller.mode().wire(), key, response);
    }

    private Statement completing(String merchantId, String mode, String key, StoredResponse response) {
        return Statement.update("""
                        update idempotency_keys set state = 'completed', response_status = ?, response_type = ?,
                            response_body = ?, completed_at = ?
                        where merchant_id = ? and mode = ? and idempotency_key = ?""",
                response.status(), response.contentType(), box.seal(response.body(), context(merchantId, mode, key)),
                Timestamps.now().atOffset(ZoneOffset.UTC), merchantId, mode, key);
    }

    /** A claimed key whose request has not finished, with what it was for. */
    public record Unfinished(String key, String method, String path) {
    }

    /** Keys still in flight for a resource (for example a redemption a crashed request left behind). */
    public List<Unfinished> unfinished(String merchantId, String mode, String resourceId) {
        return jdbc.sql("""
                        select idempotency_key, method, path from idempotency_keys
                        where merchant_id = ? and mode = ? and resource_id = ? and state = 'started'""")
                .params(merchantId, mode, resourceId)
                .query((rs, i) -> new Unfinished(rs.getString(1), rs.getString(2), rs.getString(3)))
                .list();
    }

    /** A key in flight for one of several resources: whose, and for which. */
    public record UnfinishedOf(String merchantId, String mode, String resourceId, Unfinished unfinished) {
    }

    /** As {@link #unfinished(String, String, String)}, for several resources of any merchants in one query. */
    public List<UnfinishedOf> unfinished(java.util.Collection<String> resourceIds) {
        return jdbc.sql("""
                        select merchant_id, mode, resource_id, idempotency_key, method, path from idempotency_keys
                        where resource_id = any(?::text[]) and state = 'started'""")
                .param(resourceIds.toArray(String[]::new))
                .query((rs, i) -> new UnfinishedOf(rs.getString(1), rs.getString(2), rs.getString(3),
                        new Unfinished(rs.getString(4), rs.getString(5), rs.getString(6))))
                .list();
    }

    /** Drops a claim whose request failed before it changed anything, so that a retry runs anew. */
    public void release(Caller caller, String key) {
        jdbc.sql("delete from idempotency_keys where merchant_id = ? and mode = ? and idempotency_key = ? and state = 'started'")
                .params(caller.merchantId(), caller.mode().wire(), key)
                .update();
    }

    /** Forgets completed keys past the window; returns how many went. */
    public int purgeExpired(int batch) {
        return jdbc.sql("""
                        delete from idempotency_keys where ctid in (
                            select ctid from idempotency_keys
                            where state = 'completed' and created_at < ? limit ?)""")
                .params(Timestamps.now().minus(WINDOW).atOffset(ZoneOffset.UTC), batch)
                .update();
    }

    private static String context(Caller caller, String key) {
        return context(caller.merchantId(), caller.mode().wire(), key);
    }

    private static String context(String merchantId, String mode, String key) {
        return "idempotency:" + merchantId + ":" + mode + ":" + key;
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(new SealedColumn("idempotency_keys", "response_body",
                List.of("merchant_id", "mode", "idempotency_key"), k -> context(k.get(0), k.get(1), k.get(2))));
    }
}
