package io.tender.provider.live;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.tender.provider.ProviderCapabilities;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.ProviderProtocol;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherSource;
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
 * A live provider spoken to over Tender's voucher provider protocol (docs/provider-protocol.md). Every answer
 * becomes a {@link ProviderOutcome}; nothing a provider does throws out of here:
 * <ul>
 *   <li>no connection (refused, unresolvable, connect timeout), an open circuit or a full bulkhead: nothing was sent,
 *       so nothing moved: {@code <provider>.transport_error};</li>
 *   <li>a read timeout, a reset, a 5xx, an empty or malformed body after the request went out: {@link ProviderOutcome.Unknown};</li>
 *   <li>a well-formed protocol answer: that answer.</li>
 * </ul>
 * Money-moving calls (reserve, confirm, reverse) are sent once; only status and lookup, which change nothing,
 * are retried.
 */
final class HttpVoucherProvider implements VoucherProvider {

    private static final Logger log = LoggerFactory.getLogger(HttpVoucherProvider.class);

    private final RedemptionType type;
    private final ProviderCapabilities capabilities;
    private final RestClient client;
    private final CircuitBreaker circuitBreaker;
    private final Bulkhead bulkhead;
    private final Retry readRetry;
    private final JsonMapper json;
    private final ProviderProtocol protocol;

    HttpVoucherProvider(RedemptionType type, ProviderCapabilities capabilities, RestClient client,
                        CircuitBreaker circuitBreaker, Bulkhead bulkhead, Retry readRetry, JsonMapper json) {
        this.type = type;
        this.capabilities = capabilities;
        this.client = client;
        this.circuitBreaker = circuitBreaker;
        this.bulkhead = bulkhead;
        this.readRetry = readRetry;
        this.json = json;
        this.protocol = new ProviderProtocol(json);
    }

    @Override
    public RedemptionType type() {
        return type;
    }

    @Override
    public ProviderCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public ProviderOutcome reserve(Reserve call) {
        ObjectNode body = request(call.operationKey(), call.source(), call.options());
        if (call.amount() != null) {
            body.put("amount", call.amount());
        }
        if (call.currency() != null) {
            body.put("currency", call.currency());
        }
        return send("/reserve", call.operationKey(), body);
    }

    @Override
    public ProviderOutcome confirm(Confirm call) {
        ObjectNode body = request(call.operationKey(), call.source(), call.options());
        body.put("amount", call.amount()).put("currency", call.currency());
        if (call.reservationKey() != null) {
            body.put("reservation_key", call.reservationKey());
        }
        return send("/confirm", call.operationKey(), body);
    }

    @Override
    public ProviderOutcome reverse(Reverse call) {
        ObjectNode body = request(call.operationKey(), call.source(), call.options());
        body.put("amount", call.amount()).put("currency", call.currency()).put("reversed_key", call.reversedKey());
        return send("/reverse", call.operationKey(), body);
    }

    @Override
    public ProviderOutcome status(String operationKey) {
        Supplier<ProviderOutcome> ask = () -> switch (attempt(() -> client.get()
                .uri("/operations/{key}", operationKey)
                .exchange((request, response) -> {
                    byte[] bytes = response.getBody().readAllBytes();
                    if (response.getStatusCode().value() == 404) {
                        return new ProviderOutcome.Declined(type.errorCode("transport_error"),
                                "The provider never received the request");
                    }
                    if (!response.getStatusCode().is2xxSuccessful()) {
                        throw new Unclear("status answered HTTP " + response.getStatusCode().value());
                    }
                    return protocol.read(bytes, type);
                }))) {
            case Attempt.Answered<ProviderOutcome>(ProviderOutcome outcome) when !(outcome instanceof ProviderOutcome.Unknown) -> outcome;
            case Attempt.Answered<ProviderOutcome>(ProviderOutcome outcome) -> throw new Unclear("the provider does not know yet");
            // Not being able to ask says nothing about the call asked after.
            case Attempt.NotSent<ProviderOutcome>(String why) -> throw new Unclear(why);
            case Attempt.Unclear<ProviderOutcome>(String why) -> throw new Unclear(why);
        };
        try {
            return Retry.decorateSupplier(readRetry, ask).get();
        } catch (Unclear e) {
            return unknown(e.getMessage());
        }
    }

    @Override
    public Lookup lookup(VoucherSource source) {
        ObjectNode body = json.createObjectNode();
        body.set("source", json.valueToTree(source.full()));
        Supplier<Lookup> ask = () -> switch (attempt(() -> client.post().uri("/lookup")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsBytes(body))
                .exchange((request, response) -> {
                    if (!response.getStatusCode().is2xxSuccessful() && response.getStatusCode().value() != 422) {
                        throw new Unclear("lookup answered HTTP " + response.getStatusCode().value());
                    }
                    return protocol.readLookup(response.getBody().readAllBytes());
                }))) {
            case Attempt.Answered<Lookup>(Lookup answer) -> answer;
            case Attempt.NotSent<Lookup>(String why) -> throw new Unclear(why);
            case Attempt.Unclear<Lookup>(String why) -> throw new Unclear(why);
        };
        try {
            return Retry.decorateSupplier(readRetry, ask).get();
        } catch (Unclear e) {
            log.warn("Lookup at {} failed: {}", type.providerPrefix(), e.getMessage());
            return new Lookup.Refused(type.errorCode("transport_error"), "The provider could not be reached");
        }
    }

    private ObjectNode request(String operationKey, VoucherSource source, ObjectNode options) {
        ObjectNode body = json.createObjectNode();
        body.put("operation_key", operationKey);
        body.set("source", json.valueToTree(source.full()));
        if (options != null) {
            body.set("options", options);
        }
        return body;
    }

    /** Sends a money-moving call once, with its operation key as the Idempotency-Key. */
    private ProviderOutcome send(String path, String operationKey, ObjectNode body) {
        return switch (attempt(() -> client.post().uri(path)
                .header("Idempotency-Key", operationKey)
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsBytes(body))
                .exchange((request, response) -> {
                    int status = response.getStatusCode().value();
                    byte[] bytes = response.getBody().readAllBytes();
                    if (status >= 500 || status == 408 || status == 409 || status == 429) {
                        // The provider may have acted before failing, or is still acting: cannot tell.
                        throw new Unclear("answered HTTP " + status);
                    }
                    return protocol.read(bytes, type);
                }))) {
            case Attempt.Answered<ProviderOutcome>(ProviderOutcome outcome) -> outcome;
            case Attempt.NotSent<ProviderOutcome>(String why) -> new ProviderOutcome.Declined(
                    type.errorCode("transport_error"), "The provider could not be reached; nothing was sent (" + why + ")");
            case Attempt.Unclear<ProviderOutcome>(String why) -> unknown(why);
        };
    }

    /** How one try of a call went, before it means anything for money. */
    private sealed interface Attempt<T> {
        record Answered<T>(T answer) implements Attempt<T> {
        }

        /** Nothing reached the provider. */
        record NotSent<T>(String why) implements Attempt<T> {
        }

        /** The request may have reached the provider; the answer is missing or unusable. */
        record Unclear<T>(String why) implements Attempt<T> {
        }
    }

    /** One try through the bulkhead and the circuit breaker, with every failure classified. */
    private <T> Attempt<T> attempt(Supplier<T> call) {
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
                    log.warn("Call to {} not sent: {}", type.providerPrefix(), describe(e));
                    return new Attempt.NotSent<>("no connection");
                }
                String why = explained(e);
                log.warn("Outcome of a call to {} is unclear: {}", type.providerPrefix(), why);
                return new Attempt.Unclear<>(why);
            }
        } finally {
            bulkhead.onComplete();
        }
    }

    private ProviderOutcome.Unknown unknown(String why) {
        return new ProviderOutcome.Unknown(type.errorCode("transport_error"), "No definite answer: " + why);
    }

    /** Our own reasons travel as Unclear or Malformed, perhaps wrapped by the HTTP client; anything else is I/O. */
    private static String explained(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Unclear || t instanceof ProviderProtocol.Malformed) {
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

    /** No usable answer; for reads, what the retry catches. */
    static final class Unclear extends RuntimeException {
        Unclear(String message) {
            super(message, null, false, false);
        }
    }
}
