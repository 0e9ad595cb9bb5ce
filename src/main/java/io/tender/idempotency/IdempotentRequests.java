package io.tender.idempotency;

import io.tender.api.ApiException;
import io.tender.api.JsonInput;
import io.tender.api.Problems;
import io.tender.api.Rejected;
import io.tender.api.Rejection;
import io.tender.api.Rejections;
import io.tender.api.Worded;
import io.tender.apiversion.RequestVersion;
import io.tender.auth.Caller;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs a request whose effects fit in one database transaction, under its Idempotency-Key: the claim, the effect and
 * the stored response commit together or not at all. A domain failure after the request started (404, 409, 422) is
 * stored and replayed too; validation errors, auth errors and 5xx are not, so the key stays free for a retry.
 */
@Component
public record IdempotentRequests(IdempotencyKeys keys, TransactionTemplate tx, JsonMapper json, Problems problems,
                                 Rejections rejections) {

    public static final String HEADER = "Idempotency-Key";

    /** What the work produced: a status and a body to send as JSON. */
    public record Result(int status, Object body) {
    }

    /** How the first phase of a multi-phase request went. */
    public sealed interface Start<T> {
        /** The key is claimed (or there is none) and the first phase committed with this value: go on. */
        record Running<T>(T value) implements Start<T> {
        }

        /**
         * Answer this now: a replay, or a domain failure of the first phase, stored under the key ({@code refusal},
         * null for a replay).
         */
        record Answered<T>(StoredResponse response, Rejection refusal) implements Start<T> {
        }
    }

    public ResponseEntity<byte[]> execute(Caller caller, HttpServletRequest request, JsonNode body,
                                          Supplier<Result> domainWork) {
        return execute(caller, keyed(request, body), domainWork).toEntity();
    }

    /**
     * {@link #execute(Caller, KeyedRequest, Supplier)} answering {@code status} with the view the work returns, and
     * its outcome typed for a caller in this process ({@link Answer}).
     */
    public <V> Answer<V> answer(Caller caller, KeyedRequest request, int status, Class<V> view,
                                Supplier<V> domainWork) {
        List<V> done = new ArrayList<>(1);
        Refusal refusal = new Refusal();
        StoredResponse response = execute(caller, request, refusal.watching(() -> {
            V made = domainWork.get();
            done.add(made);
            return new Result(status, made);
        }));
        return answer(response, done.isEmpty() ? null : done.getFirst(), refusal.rejection, view);
    }

    /** A multi-phase request's first phase answered it (a replay, or a refusal): typed, its view of class {@code view}. */
    public <V> Answer<V> answer(Start.Answered<?> answered, Class<V> view) {
        return answer(answered.response(), null, answered.refusal(), view);
    }

    /**
     * {@code response} typed: a replay says what the first answer said (its view read back as {@code viewType}, or its
     * problem's words); otherwise refused by {@code refusal}, or done with {@code view}.
     */
    private <V> Answer<V> answer(StoredResponse response, V view, Rejection refusal, Class<V> viewType) {
        Outcome<V> outcome = response.replayed() ? replayed(response, viewType)
                : refusal != null ? new Outcome.Refused<>(refusal) : new Outcome.Done<>(view);
        return new Answer<>(outcome, response);
    }

    private <V> Outcome.Replayed<V> replayed(StoredResponse response, Class<V> viewType) {
        try {
            if (response.status() < 300) {
                return new Outcome.Replayed<>(response.status(), json.readValue(response.body(), viewType), null);
            }
            JsonNode detail = json.readTree(response.body()).path("detail");
            return new Outcome.Replayed<>(response.status(), null, detail.isString() ? detail.stringValue() : null);
        } catch (RuntimeException e) {
            return new Outcome.Replayed<>(response.status(), null, null);
        }
    }

    /** {@link #execute(Caller, HttpServletRequest, JsonNode, Supplier)} for an application service. */
    public StoredResponse execute(Caller caller, KeyedRequest request, Supplier<Result> domainWork) {
        Supplier<Result> work = rejections.answering(domainWork);
        String key = request.key();
        if (key == null) {
            return tx.execute(s -> render(work.get()));
        }
        try {
            return tx.execute(s -> claimThen(caller, key, request.fingerprint(), () -> render(work.get())));
        } catch (ApiException e) {
            if (!storable(e)) {
                throw e;
            }
            StoredResponse failure = request.failures().apply(e);
            return tx.execute(s -> claimThen(caller, key, request.fingerprint(), () -> failure));
        }
    }

    /**
     * Runs work that calls a provider and changes nothing of ours (a balance lookup) under its Idempotency-Key,
     * without holding a transaction across the call: claim, call, then store the answer. If the work fails
     * unexpectedly, the claim is dropped so a retry can run.
     */
    public ResponseEntity<byte[]> executeWithoutTransaction(Caller caller, HttpServletRequest request, JsonNode body,
                                                            Supplier<Result> domainWork) {
        KeyedRequest keyed = keyed(request, body);
        Supplier<Result> work = rejections.answering(domainWork);
        String key = keyed.key();
        if (key == null) {
            return render(work.get()).toEntity();
        }
        var replay = tx.execute(s -> IdempotencyKeys.replayOrThrow(keys.claim(caller, key, keyed.fingerprint(), null)));
        if (replay.isPresent()) {
            return replay.get().toEntity();
        }
        StoredResponse response;
        try {
            response = render(work.get());
        } catch (ApiException e) {
            if (!storable(e)) {
                tx.executeWithoutResult(s -> keys.release(caller, key));
                throw e;
            }
            response = keyed.failures().apply(e);
        } catch (RuntimeException e) {
            tx.executeWithoutResult(s -> keys.release(caller, key));
            throw e;
        }
        StoredResponse done = response;
        tx.executeWithoutResult(s -> keys.complete(caller, key, done));
        return done.toEntity();
    }

    /**
     * The first phase of a request that calls a provider between transactions (redemptions): claims the key and
     * runs {@code firstPhase} in one transaction. The caller completes the key with
     * {@link IdempotencyKeys#complete} in the transaction of its last phase. The claim records
     * {@code resourceId}, so that work left unfinished by a crash can complete the key later.
     */
    public <T> Start<T> start(Caller caller, HttpServletRequest request, JsonNode body, String resourceId,
                              Supplier<T> firstPhase) {
        return start(caller, keyed(request, body), resourceId, firstPhase);
    }

    /** {@link #start(Caller, HttpServletRequest, JsonNode, String, Supplier)} for an application service. */
    public <T> Start<T> start(Caller caller, KeyedRequest request, String resourceId, Supplier<T> domainPhase) {
        Refusal refusal = new Refusal();
        Supplier<T> firstPhase = rejections.answering(refusal.watching(domainPhase));
        String key = request.key();
        if (key == null) {
            return new Start.Running<>(tx.execute(s -> firstPhase.get()));
        }
        RequestFingerprint fingerprint = request.fingerprint();
        try {
            return tx.execute(s -> {
                var replay = IdempotencyKeys.replayOrThrow(keys.claim(caller, key, fingerprint, resourceId));
                return replay.<Start<T>>map(r -> new Start.Answered<>(r, null))
                        .orElseGet(() -> new Start.Running<>(firstPhase.get()));
            });
        } catch (ApiException e) {
            if (!storable(e)) {
                throw e;
            }
            StoredResponse failure = request.failures().apply(e);
            return new Start.Answered<>(tx.execute(s -> claimThen(caller, key, fingerprint, () -> failure)),
                    refusal.rejection);
        }
    }

    /**
     * The later phases of a multi-phase request begun with {@link #start}: if they fail, the key is released so that a
     * retry runs again (the work must be safe to repeat, as each phase's own claims make it).
     */
    public <T> T releasingOnFailure(Caller caller, KeyedRequest request, Supplier<T> laterPhases) {
        try {
            return laterPhases.get();
        } catch (RuntimeException e) {
            if (request.key() != null) {
                tx.executeWithoutResult(s -> keys.release(caller, request.key()));
            }
            throw e;
        }
    }

    /** The answer of a multi-phase request's last phase, stored under its key (if it has one) for replays. */
    public StoredResponse completed(Caller caller, KeyedRequest request, StoredResponse response) {
        if (request.key() != null) {
            tx.executeWithoutResult(s -> keys.complete(caller, request.key(), response));
        }
        return response;
    }

    /**
     * The request as an application service takes it: its validated key, what the key is bound to, and how a
     * domain failure renders (as the problem this request would have answered).
     */
    public KeyedRequest keyed(HttpServletRequest request, JsonNode body) {
        return keyed(request.getHeader(HEADER), request.getMethod(), request.getRequestURI(), body, request);
    }

    /**
     * {@link #keyed(HttpServletRequest, JsonNode)} for a request that takes no body: a body with any property is then
     * refused 400, as {@link JsonInput} refuses an unknown one.
     */
    public KeyedRequest keyedWithoutBody(HttpServletRequest request, JsonNode body) {
        KeyedRequest keyed = keyed(request, body);
        JsonInput.body(body).allow(java.util.Set.of()).throwIfInvalid();
        return keyed;
    }

    /**
     * A request made for someone on another page (the dashboard's forms): {@code key} bound to the API request it
     * stands for ({@code method}, {@code path}, {@code body}), its domain failures rendered as problems of
     * {@code request}, the page's own. The key is bound to the request's API version too: a page's is the newest.
     */
    public KeyedRequest keyed(String key, String method, String path, JsonNode body, HttpServletRequest request) {
        IdempotencyKeys.validate(key);
        if (key == null) {
            return KeyedRequest.unkeyed();
        }
        return new KeyedRequest(key, RequestFingerprint.of(method, path, RequestVersion.of(request).wire(), body),
                e -> new StoredResponse(e.status(), Problems.PROBLEM_JSON.toString(),
                        problems.bytes(problems.problem(e, request)), false));
    }

    /** The rejection a domain's work threw, kept as it goes on to be rendered as its problem. */
    private static final class Refusal {
        private Rejection rejection;

        <T> Supplier<T> watching(Supplier<T> work) {
            return () -> {
                try {
                    return work.get();
                } catch (Rejected e) {
                    rejection = e.rejection();
                    throw e;
                } catch (ApiException e) {
                    rejection = new Worded(e);
                    throw e;
                }
            };
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
