package io.tender.provider.live;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One try of a call to another system (a voucher provider, a payment processor) through its bulkhead and circuit
 * breaker, with every failure classified by what it means for money: nothing was sent (no connection, an open circuit,
 * a full bulkhead), or the call may have arrived and the answer is missing or unusable. Shared by every live adapter,
 * so they all have the same resilience. Log lines name the target and the exception's kind, never a body.
 */
public final class GuardedCalls {

    private static final Logger log = LoggerFactory.getLogger(GuardedCalls.class);

    /** How one try went, before it means anything for money. */
    public sealed interface Attempt<T> {
        record Answered<T>(T answer) implements Attempt<T> {
        }

        /** Nothing reached the other side. */
        record NotSent<T>(String why) implements Attempt<T> {
        }

        /** The request may have reached the other side; the answer is missing or unusable. */
        record Unclear<T>(String why) implements Attempt<T> {
        }
    }

    /** No usable answer, with our own reason; for calls safe to repeat, what the read retry catches. */
    public static final class Unclear extends RuntimeException {
        public Unclear(String message) {
            super(message, null, false, false);
        }
    }

    private final CircuitBreaker circuitBreaker;
    private final Bulkhead bulkhead;
    private final String target;
    private final Class<? extends RuntimeException> malformed;

    /** {@code malformed}: the protocol's "not a well-formed answer" exception, whose message explains an unclear try. */
    public GuardedCalls(CircuitBreaker circuitBreaker, Bulkhead bulkhead, String target,
                        Class<? extends RuntimeException> malformed) {
        this.circuitBreaker = circuitBreaker;
        this.bulkhead = bulkhead;
        this.target = target;
        this.malformed = malformed;
    }

    public <T> Attempt<T> attempt(Supplier<T> call) {
        if (!bulkhead.tryAcquirePermission()) {
            return new Attempt.NotSent<>("too many calls in progress");
        }
        try {
            if (!circuitBreaker.tryAcquirePermission()) {
                return new Attempt.NotSent<>("circuit open");
            }
            long start = System.nanoTime();
            try {
                T answer = call.get();
                circuitBreaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return new Attempt.Answered<>(answer);
            } catch (RuntimeException e) {
                circuitBreaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
                if (nothingSent(e)) {
                    log.warn("Call to {} not sent: {}", target, describe(e));
                    return new Attempt.NotSent<>("no connection");
                }
                String why = explained(e);
                log.warn("Outcome of a call to {} is unclear: {}", target, why);
                return new Attempt.Unclear<>(why);
            }
        } finally {
            bulkhead.onComplete();
        }
    }

    /**
     * Posts a money-moving call once, with its operation key as the Idempotency-Key, and reads a protocol answer from
     * the body. A 5xx, 408, 409 or 429 is unclear: the other side may have acted before failing, or is still acting.
     */
    public <T> Attempt<T> postOnce(RestClient client, String path, String operationKey, byte[] body,
                                   Function<byte[], T> read) {
        return attempt(() -> client.post().uri(path)
                .header("Idempotency-Key", operationKey)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body)
                .exchange((request, response) -> {
                    int status = response.getStatusCode().value();
                    byte[] bytes = response.getBody().readAllBytes();
                    if (status >= 500 || status == 408 || status == 409 || status == 429) {
                        throw new Unclear("answered HTTP " + status);
                    }
                    return read.apply(bytes);
                }));
    }

    /**
     * Asks how the call with this operation key ended ({@code GET /operations/{key}}). The question changes nothing,
     * so {@code retry} repeats it while the answer is unclear or {@code stillUnknown}. A 404: the call never arrived
     * ({@code neverReceived}). No answer in the end: {@code noAnswer} with the last try's reason.
     */
    public <T> T query(RestClient client, Retry retry, String operationKey, Function<byte[], T> read,
                       Supplier<T> neverReceived, Predicate<T> stillUnknown, Function<String, T> noAnswer) {
        Supplier<T> ask = () -> switch (attempt(() -> client.get()
                .uri("/operations/{key}", operationKey)
                .exchange((request, response) -> {
                    byte[] bytes = response.getBody().readAllBytes();
                    if (response.getStatusCode().value() == 404) {
                        return neverReceived.get();
                    }
                    if (!response.getStatusCode().is2xxSuccessful()) {
                        throw new Unclear("status answered HTTP " + response.getStatusCode().value());
                    }
                    return read.apply(bytes);
                }))) {
            case Attempt.Answered<T>(T outcome) when !stillUnknown.test(outcome) -> outcome;
            case Attempt.Answered<T>(T outcome) -> throw new Unclear(target + " does not know yet");
            // Not being able to ask says nothing about the call asked after.
            case Attempt.NotSent<T>(String why) -> throw new Unclear(why);
            case Attempt.Unclear<T>(String why) -> throw new Unclear(why);
        };
        try {
            return Retry.decorateSupplier(retry, ask).get();
        } catch (Unclear e) {
            return noAnswer.apply(e.getMessage());
        }
    }

    /** Our own reasons travel as Unclear or the protocol's Malformed, perhaps wrapped by the HTTP client; anything else is I/O. */
    private String explained(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Unclear || malformed.isInstance(t)) {
                return t.getMessage();
            }
        }
        return "the connection failed after sending (" + describe(e) + ")";
    }

    private static boolean nothingSent(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof HttpConnectTimeoutException
                    || t instanceof UnknownHostException || t instanceof NoRouteToHostException
                    || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }

    /** The exception's kind only: messages of I/O errors can quote URLs, never request bodies, but keep it short. */
    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }
}
