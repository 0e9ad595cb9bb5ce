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

import java.util.function.Consumer;
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
    private final GuardedCalls calls;
    private final Retry readRetry;
    private final JsonMapper json;
    private final ProviderProtocol protocol;

    HttpVoucherProvider(RedemptionType type, ProviderCapabilities capabilities, RestClient client,
                        CircuitBreaker circuitBreaker, Bulkhead bulkhead, Retry readRetry, JsonMapper json) {
        this.type = type;
        this.capabilities = capabilities;
        this.client = client;
        this.calls = new GuardedCalls(circuitBreaker, bulkhead, type.providerPrefix(), ProtocolJson.Malformed.class);
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
        return send("/reserve", call.operationKey(), call.source(), call.options(), body -> {
            if (call.amount() != null) {
                body.put("amount", call.amount());
            }
            if (call.currency() != null) {
                body.put("currency", call.currency());
            }
        });
    }

    @Override
    public ProviderOutcome confirm(Confirm call) {
        return send("/confirm", call.operationKey(), call.source(), call.options(), body -> {
            body.put("amount", call.amount()).put("currency", call.currency());
            if (call.reservationKey() != null) {
                body.put("reservation_key", call.reservationKey());
            }
        });
    }

    @Override
    public ProviderOutcome reverse(Reverse call) {
        return send("/reverse", call.operationKey(), call.source(), call.options(), body -> body
                .put("amount", call.amount()).put("currency", call.currency()).put("reversed_key", call.reversedKey()));
    }

    @Override
    public ProviderOutcome status(String operationKey) {
        return calls.query(client, readRetry, operationKey, bytes -> protocol.read(bytes, type),
                () -> new ProviderOutcome.Declined(type.errorCode("transport_error"),
                        "The provider never received the request"),
                outcome -> outcome instanceof ProviderOutcome.Unknown, this::unknown);
    }

    @Override
    public Lookup lookup(VoucherSource source) {
        ObjectNode body = json.createObjectNode();
        body.set("source", json.valueToTree(source.full()));
        Supplier<Lookup> ask = () -> switch (calls.attempt(() -> client.post().uri("/lookup")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsBytes(body))
                .exchange((request, response) -> {
                    if (!response.getStatusCode().is2xxSuccessful() && response.getStatusCode().value() != 422) {
                        throw new GuardedCalls.Unclear("lookup answered HTTP " + response.getStatusCode().value());
                    }
                    return protocol.readLookup(response.getBody().readAllBytes());
                }))) {
            case GuardedCalls.Attempt.Answered<Lookup>(Lookup answer) -> answer;
            case GuardedCalls.Attempt.NotSent<Lookup>(String why) -> throw new GuardedCalls.Unclear(why);
            case GuardedCalls.Attempt.Unclear<Lookup>(String why) -> throw new GuardedCalls.Unclear(why);
        };
        try {
            return Retry.decorateSupplier(readRetry, ask).get();
        } catch (GuardedCalls.Unclear e) {
            log.warn("Lookup at {} failed: {}", type.providerPrefix(), e.getMessage());
            return new Lookup.Refused(type.errorCode("transport_error"), "The provider could not be reached");
        }
    }

    /**
     * Sends a money-moving call once, with its operation key as the Idempotency-Key: its body is the operation key,
     * the source and the options, then what {@code fields} adds.
     */
    private ProviderOutcome send(String path, String operationKey, VoucherSource source, ObjectNode options,
                                 Consumer<ObjectNode> fields) {
        ObjectNode body = json.createObjectNode();
        body.put("operation_key", operationKey);
        body.set("source", json.valueToTree(source.full()));
        if (options != null) {
            body.set("options", options);
        }
        fields.accept(body);
        return switch (calls.postOnce(client, path, operationKey, json.writeValueAsBytes(body),
                bytes -> protocol.read(bytes, type))) {
            case GuardedCalls.Attempt.Answered<ProviderOutcome>(ProviderOutcome outcome) -> outcome;
            case GuardedCalls.Attempt.NotSent<ProviderOutcome>(String why) -> new ProviderOutcome.Declined(
                    type.errorCode("transport_error"), "The provider could not be reached; nothing was sent (" + why + ")");
            case GuardedCalls.Attempt.Unclear<ProviderOutcome>(String why) -> unknown(why);
        };
    }

    private ProviderOutcome.Unknown unknown(String why) {
        return new ProviderOutcome.Unknown(type.errorCode("transport_error"), "No definite answer: " + why);
    }
}
