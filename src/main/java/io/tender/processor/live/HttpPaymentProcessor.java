package io.tender.processor.live;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A live processor spoken to over Tender's processor protocol (docs/processor-protocol.md), classified as the voucher
 * adapter classifies its answers:
 * <ul>
 *   <li>no connection (refused, unresolvable, connect timeout), an open circuit or a full bulkhead: nothing was sent,
 *       so nothing moved: a "not received" decline;</li>
 *   <li>a read timeout, a reset, a 5xx, 408/409/429, an empty or malformed body after sending: {@link ProcessorOutcome.Unknown};</li>
 *   <li>a well-formed protocol answer: that answer.</li>
 * </ul>
 * Money-moving calls (authorize, capture, void) are sent once; only the status query, which changes nothing, is
 * retried. Log lines never carry a request body (it holds the card).
 */
final class HttpPaymentProcessor implements PaymentProcessor {

    private static final Logger log = LoggerFactory.getLogger(HttpPaymentProcessor.class);

    private final RestClient client;
    private final CircuitBreaker circuitBreaker;
    private final Bulkhead bulkhead;
    private final Retry readRetry;
    private final JsonMapper json;
    private final ProcessorProtocol protocol;

    HttpPaymentProcessor(RestClient client, CircuitBreaker circuitBreaker, Bulkhead bulkhead, Retry readRetry,
                         JsonMapper json) {
        this.client = client;
        this.circuitBreaker = circuitBreaker;
        this.bulkhead = bulkhead;
        this.readRetry = readRetry;
        this.json = json;
        this.protocol = new ProcessorProtocol(json);
    }

    @Override
    public ProcessorOutcome authorize(Authorize call) {
        return send("/authorize", call.operationKey(), protocol.authorize(call));
    }

    @Override
    public ProcessorOutcome capture(Capture call) {
        return send("/capture", call.operationKey(),
                protocol.follow(call.operationKey(), call.authorizationKey(), call.amount(), call.currency()));
    }

    @Override
    public ProcessorOutcome release(Release call) {
        return send("/void", call.operationKey(),
                protocol.follow(call.operationKey(), call.authorizationKey(), call.amount(), call.currency()));
    }

    @Override
    public ProcessorOutcome status(String operationKey) {
        Supplier<ProcessorOutcome> ask = () -> switch (attempt(() -> client.get()
                .uri("/operations/{key}", operationKey)
                .exchange((request, response) -> {
                    byte[] bytes = response.getBody().readAllBytes();
                    if (response.getStatusCode().value() == 404) {
                        return ProcessorOutcome.Declined.notReceived("The processor never received the request");
                    }
                    if (!response.getStatusCode().is2xxSuccessful()) {
                        throw new Unclear("status answered HTTP " + response.getStatusCode().value());
                    }
                    return protocol.read(bytes);
                }))) {
            case Attempt.Answered(ProcessorOutcome outcome) when !(outcome instanceof ProcessorOutcome.Unknown) -> outcome;
            case Attempt.Answered(ProcessorOutcome outcome) -> throw new Unclear("the processor does not know yet");
            // Not being able to ask says nothing about the call asked after.
            case Attempt.NotSent(String why) -> throw new Unclear(why);
            case Attempt.Unclear(String why) -> throw new Unclear(why);
        };
        try {
            return Retry.decorateSupplier(readRetry, ask).get();
        } catch (Unclear e) {
            return new ProcessorOutcome.Unknown("No definite answer: " + e.getMessage());
        }
    }

    /** Sends a money-moving call once, with its operation key as the Idempotency-Key. */
    private ProcessorOutcome send(String path, String operationKey, ObjectNode body) {
        return switch (attempt(() -> client.post().uri(path)
                .header("Idempotency-Key", operationKey)
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsBytes(body))
                .exchange((request, response) -> {
                    int status = response.getStatusCode().value();
                    byte[] bytes = response.getBody().readAllBytes();
                    if (status >= 500 || status == 408 || status == 409 || status == 429) {
                        throw new Unclear("answered HTTP " + status);
                    }
                    return protocol.read(bytes);
                }))) {
            case Attempt.Answered(ProcessorOutcome outcome) -> outcome;
            case Attempt.NotSent(String why) -> ProcessorOutcome.Declined.notReceived(
                    "The processor could not be reached; nothing was sent (" + why + ")");
            case Attempt.Unclear(String why) -> new ProcessorOutcome.Unknown("No definite answer: " + why);
        };
    }

    private sealed interface Attempt {
        record Answered(ProcessorOutcome answer) implements Attempt {
        }

        record NotSent(String why) implements Attempt {
        }

        record Unclear(String why) implements Attempt {
        }
    }

    private Attempt attempt(Supplier<ProcessorOutcome> call) {
        if (!bulkhead.tryAcquirePermission()) {
            return new Attempt.NotSent("too many calls in progress");
        }
        try {
            if (!circuitBreaker.tryAcquirePermission()) {
                return new Attempt.NotSent("circuit open");
            }
            long start = System.nanoTime();
            try {
                ProcessorOutcome answer = call.get();
                circuitBreaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return new Attempt.Answered(answer);
            } catch (RuntimeException e) {
                circuitBreaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
                if (nothingSent(e)) {
                    log.warn("Call to the processor not sent: {}", describe(e));
                    return new Attempt.NotSent("no connection");
                }
                String why = explained(e);
                log.warn("Outcome of a call to the processor is unclear: {}", why);
                return new Attempt.Unclear(why);
            }
        } finally {
            bulkhead.onComplete();
        }
    }

    private static String explained(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Unclear || t instanceof ProcessorProtocol.Malformed) {
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

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    /** No usable answer; for the status query, what the retry catches. */
    static final class Unclear extends RuntimeException {
        Unclear(String message) {
            super(message, null, false, false);
        }
    }
}
