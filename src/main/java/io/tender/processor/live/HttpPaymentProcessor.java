package io.tender.processor.live;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorProtocol;
import io.tender.provider.live.GuardedCalls;
import io.tender.provider.live.ProtocolJson;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A live processor spoken to over Tender's processor protocol (docs/processor-protocol.md), classified as the voucher
 * adapter classifies its answers:
 * <ul>
 *   <li>no connection (refused, unresolvable, connect timeout), an open circuit or a full bulkhead: nothing was sent,
 *       so nothing moved: a "not received" decline;</li>
 *   <li>a read timeout, a reset, a 5xx, 408/409/429, an empty or malformed body after sending: {@link ProcessorOutcome.Unknown};</li>
 *   <li>a well-formed protocol answer: that answer; {@code pending} ({@link ProcessorOutcome.Accepted}) only from a
 *       refund, from any other call it is {@link ProcessorOutcome.Unknown}; {@code action_required} to a charge of a
 *       kept card (without the customer) is a decline {@code authentication_required}.</li>
 * </ul>
 * Money-moving calls (authorize, capture, void, refund) are sent once; only the status query, which changes nothing,
 * is retried, through the voucher adapters' {@link GuardedCalls}. Log lines never carry a request body (it holds the
 * card).
 */
final class HttpPaymentProcessor implements PaymentProcessor {

    private static final Logger log = LoggerFactory.getLogger(HttpPaymentProcessor.class);

    private final RestClient client;
    private final GuardedCalls calls;
    private final Retry readRetry;
    private final JsonMapper json;
    private final ProcessorProtocol protocol;

    HttpPaymentProcessor(RestClient client, CircuitBreaker circuitBreaker, Bulkhead bulkhead, Retry readRetry,
                         JsonMapper json) {
        this.client = client;
        this.calls = new GuardedCalls(circuitBreaker, bulkhead, "the processor", ProtocolJson.Malformed.class);
        this.readRetry = readRetry;
        this.json = json;
        this.protocol = new ProcessorProtocol(json);
    }

    @Override
    public ProcessorOutcome authorize(Authorize call) {
        ProcessorOutcome outcome = send("/authorize", call.operationKey(), protocol.authorize(call));
        if (call.offSession() && outcome instanceof ProcessorOutcome.ActionRequired required) {
            // A kept card is charged without the customer (decisions §8): nobody is there to act, whether or not the
            // processor names a page, so the charge fails as the protocol's decline for it would, and nothing more is
            // sent. Checked before the redirect, which would otherwise fail it as a processing error.
            log.warn("The processor asked for {} on {}, a charge without the customer; it fails authentication_required",
                    required.action(), call.operationKey());
            return new ProcessorOutcome.Declined("authentication_required", "authentication_required",
                    "The card needs the customer to authenticate; ask them to pay (a payment request)");
        }
        if (outcome instanceof ProcessorOutcome.ActionRequired(String action, String redirectUrl)
                && !action.equals("app_approval") && !safeRedirect(redirectUrl)) {
            // The customer cannot be sent anywhere safe, so the attempt fails. The query may carry the processor's
            // tokens for the customer: it is left out of the log.
            log.warn("The processor asked for {} on {} with an unusable redirect URL ({}); the attempt fails", action,
                    call.operationKey(), withoutQuery(redirectUrl));
            return new ProcessorOutcome.Declined("processing_error", "invalid_redirect",
                    "The processor's redirect for the customer was not an absolute https URL");
        }
        return outcome;
    }

    /**
     * Where the checkout may send the customer's browser: an absolute https URL with a host, or http on a loopback
     * host (a processor on the same machine: tests and a developer's simulator). Anything else (javascript:, a
     * relative path, http to the internet, no URL at all) is refused.
     */
    static boolean safeRedirect(String url) {
        if (url == null || url.isBlank()) {
            return false;
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return false;
        }
        if (!uri.isAbsolute() || uri.getHost() == null || uri.getRawUserInfo() != null) {
            return false;
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost();
        return scheme.equals("https") || (scheme.equals("http")
                && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]")));
    }

    /** The URL up to its query, for a log line. */
    static String withoutQuery(String url) {
        if (url == null) {
            return "none";
        }
        int cut = url.length();
        for (char c : new char[]{'?', '#'}) {
            int at = url.indexOf(c);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return url.substring(0, Math.min(cut, 200));
    }

    /** Sent once, like a capture; the only call the processor may answer {@code pending} (finished later). */
    @Override
    public ProcessorOutcome refund(Refund call) {
        return post("/refund", call.operationKey(),
                protocol.follow(call.operationKey(), call.authorizationKey(), call.amount(), call.currency()));
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
        return calls.query(client, readRetry, operationKey, protocol::read,
                () -> ProcessorOutcome.Declined.notReceived("The processor never received the request"),
                outcome -> outcome instanceof ProcessorOutcome.Unknown,
                why -> new ProcessorOutcome.Unknown("No definite answer: " + why));
    }

    /**
     * Sends a money-moving call that is decided at once (not a refund): a {@code pending} answer to it is outside the
     * protocol, and the processor may have moved money, so it is unknown until the status query says.
     */
    private ProcessorOutcome send(String path, String operationKey, ObjectNode body) {
        ProcessorOutcome outcome = post(path, operationKey, body);
        if (outcome instanceof ProcessorOutcome.Accepted) {
            log.warn("The processor answered pending to {} {}, which only a refund may be; its outcome is unknown",
                    path, operationKey);
            return new ProcessorOutcome.Unknown("The processor answered pending to " + path + ", outside the protocol");
        }
        return outcome;
    }

    /** Sends a money-moving call once, with its operation key as the Idempotency-Key. */
    private ProcessorOutcome post(String path, String operationKey, ObjectNode body) {
        return switch (calls.postOnce(client, path, operationKey, json.writeValueAsBytes(body), protocol::read)) {
            case GuardedCalls.Attempt.Answered<ProcessorOutcome>(ProcessorOutcome outcome) -> outcome;
            case GuardedCalls.Attempt.NotSent<ProcessorOutcome>(String why) -> ProcessorOutcome.Declined.notReceived(
                    "The processor could not be reached; nothing was sent (" + why + ")");
            case GuardedCalls.Attempt.Unclear<ProcessorOutcome>(String why) -> new ProcessorOutcome.Unknown("No definite answer: " + why);
        };
    }
}
