package io.tender.idempotency;

import io.tender.api.ApiException;
import io.tender.api.Problems;
import io.tender.auth.Caller;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.function.Supplier;

/**
 * Runs a request whose effects fit in one database transaction, under its Idempotency-Key: the claim, the effect and
 * the stored response commit together or not at all. A domain failure after the request started (404, 409, 422) is
 * stored and replayed too; validation errors, auth errors and 5xx are not, so the key stays free for a retry.
 */
@Component
public class IdempotentRequests {

    public static final String HEADER = "Idempotency-Key";

    /** What the work produced: a status and a body to send as JSON. */
    public record Result(int status, Object body) {
    }

    private final IdempotencyKeys keys;
    private final TransactionTemplate tx;
    private final JsonMapper json;
    private final Problems problems;

    IdempotentRequests(IdempotencyKeys keys, TransactionTemplate tx, JsonMapper json, Problems problems) {
        this.keys = keys;
        this.tx = tx;
        this.json = json;
        this.problems = problems;
    }

    public ResponseEntity<byte[]> execute(Caller caller, HttpServletRequest request, JsonNode body, Supplier<Result> work) {
        String key = request.getHeader(HEADER);
        IdempotencyKeys.validate(key);
        if (key == null) {
            return tx.execute(s -> render(work.get())).toEntity();
        }
        RequestFingerprint fingerprint = RequestFingerprint.of(request.getMethod(), request.getRequestURI(), body);
        try {
            return tx.execute(s -> claimThen(caller, key, fingerprint, () -> render(work.get()))).toEntity();
        } catch (ApiException e) {
            if (!storable(e)) {
                throw e;
            }
            StoredResponse failure = new StoredResponse(e.status(), Problems.PROBLEM_JSON.toString(),
                    problems.bytes(problems.problem(e, request)), false);
            return tx.execute(s -> claimThen(caller, key, fingerprint, () -> failure)).toEntity();
        }
    }

    private StoredResponse claimThen(Caller caller, String key, RequestFingerprint fingerprint, Supplier<StoredResponse> run) {
        var replay = IdempotencyKeys.replayOrThrow(keys.claim(caller, key, fingerprint, null));
        if (replay.isPresent()) {
            return replay.get();
        }
        StoredResponse response = run.get();
        keys.complete(caller, key, response);
        return response;
    }

    private StoredResponse render(Result result) {
        return StoredResponse.json(result.status(), json.writeValueAsBytes(result.body()));
    }

    /** Answers that describe the request's effect on existing state are kept for replays (decisions §1). */
    public static boolean storable(ApiException e) {
        return e.status() == 404 || e.status() == 422
                || (e.status() == 409 && e.code() != io.tender.api.ProblemCode.IDEMPOTENCY_CONFLICT
                && !e.headers().containsKey("Retry-After"));
    }
}
