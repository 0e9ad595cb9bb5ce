package io.tender.simulator;

import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorProtocol;
import io.tender.processor.sandbox.SandboxProcessor;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.ProviderProtocol;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherSource;
import io.tender.provider.sandbox.SandboxProviders;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * The provider side of the protocol: {@code /{provider}/reserve|confirm|reverse|lookup}, {@code /{provider}/operations/{key}},
 * and {@code /_ledger} to inspect what it did. Approvals answer 200, declines 422, and the sandbox's "timeout" (PIN
 * ending 0006 on confirm) answers 504 after redeeming, so callers see an unknown outcome. {@code tender.simulator.delay}
 * slows every money-moving answer down (after the work is done, the dangerous window for a caller).
 */
@RestController
@Profile(ProviderSimulator.PROFILE)
class SimulatorController {

    private final SandboxProviders sandbox;
    private final SandboxProcessor processor;
    private final ProcessorProtocol processorProtocol;
    private final ProviderProtocol protocol;
    private final JsonMapper json;
    private final Duration delay;
    private final byte[] apiKey;

    SimulatorController(SandboxProviders sandbox, SandboxProcessor processor, JsonMapper json,
                        SimulatorSettings settings) {
        this.sandbox = sandbox;
        this.processor = processor;
        this.processorProtocol = new ProcessorProtocol(json);
        this.protocol = new ProviderProtocol(json);
        this.json = json;
        this.delay = settings.delay();
        this.apiKey = settings.apiKey().getBytes(StandardCharsets.UTF_8);
    }

    @PostMapping(value = "/{provider}/{call:reserve|confirm|reverse}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> move(@PathVariable String provider, @PathVariable String call,
                           @RequestHeader(value = "Authorization", required = false) String authorization,
                           @RequestBody JsonNode body) throws InterruptedException {
        authorize(authorization);
        RedemptionType type = type(provider);
        VoucherProvider sandboxProvider = sandbox.of(type);
        VoucherSource source = source(type, body);
        String key = body.path("operation_key").stringValue(null);
        if (source == null || key == null) {
            return ResponseEntity.badRequest().body(Map.of("result", "declined", "error_code", "BAD_REQUEST",
                    "message", "operation_key and a valid source are required"));
        }
        ObjectNode options = body.get("options") instanceof ObjectNode o ? o : null;
        String currency = body.path("currency").stringValue(null);
        ProviderOutcome outcome = switch (call) {
            case "reserve" -> sandboxProvider.reserve(new VoucherProvider.Reserve(key, source,
                    body.has("amount") ? body.get("amount").longValue() : null, currency, options));
            case "confirm" -> sandboxProvider.confirm(new VoucherProvider.Confirm(key, source,
                    body.path("amount").longValue(), currency, body.path("reservation_key").stringValue(null), options));
            default -> sandboxProvider.reverse(new VoucherProvider.Reverse(key, source, body.path("amount").longValue(),
                    currency, body.path("reversed_key").stringValue(null), options));
        };
        if (!delay.isZero()) {
            Thread.sleep(delay);
        }
        return switch (outcome) {
            case ProviderOutcome.Approved a -> ResponseEntity.ok(protocol.write(a));
            case ProviderOutcome.Declined d -> ResponseEntity.unprocessableContent().body(protocol.write(d));
            case ProviderOutcome.Unknown u -> ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).build();
        };
    }

    @PostMapping(value = "/{provider}/lookup", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> lookup(@PathVariable String provider,
                             @RequestHeader(value = "Authorization", required = false) String authorization,
                             @RequestBody JsonNode body) {
        authorize(authorization);
        RedemptionType type = type(provider);
        VoucherSource source = source(type, body);
        if (source == null) {
            return ResponseEntity.badRequest().body(Map.of("result", "declined", "error_code", "BAD_REQUEST",
                    "message", "a valid source is required"));
        }
        var answer = sandbox.of(type).lookup(source);
        return answer instanceof VoucherProvider.Lookup.Balance ? ResponseEntity.ok(protocol.write(answer))
                : ResponseEntity.unprocessableContent().body(protocol.write(answer));
    }

    @GetMapping(value = "/{provider}/operations/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> status(@PathVariable String provider, @PathVariable String key,
                             @RequestHeader(value = "Authorization", required = false) String authorization) {
        authorize(authorization);
        ProviderOutcome outcome = sandbox.of(type(provider)).status(key);
        if (outcome instanceof ProviderOutcome.Declined d && d.errorCode().endsWith(".transport_error")) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("result", "not_found"));
        }
        return ResponseEntity.ok(protocol.write(outcome));
    }

    /**
     * The processor protocol (docs/processor-protocol.md) over the sandbox processor: approvals 200, declines 422,
     * action required and a refund accepted for later 202, and the card (or refund amount ending in 53) that times
     * out after approving 504 (its status says approved).
     */
    @PostMapping(value = "/processor/{call:authorize|capture|void|refund}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> process(@PathVariable String call,
                              @RequestHeader(value = "Authorization", required = false) String authorization,
                              @RequestBody JsonNode body) throws InterruptedException {
        authorize(authorization);
        String key = body.path("operation_key").stringValue(null);
        String currency = body.path("currency").stringValue(null);
        ProcessorOutcome outcome;
        if (call.equals("authorize")) {
            PaymentProcessor.Authorize authorize = processorProtocol.readAuthorize(body);
            if (authorize == null) {
                return ResponseEntity.badRequest().body(Map.of("result", "declined", "error_code", "invalid_request",
                        "message", "operation_key, amount, currency, capture (a boolean) and a method are required"));
            }
            outcome = processor.authorize(authorize);
            // A real processor's 3-D Secure or bank step is a page of its own that the customer is sent to; the
            // simulator serves one, which returns the customer to the checkout's return_url.
            if (outcome instanceof ProcessorOutcome.ActionRequired r && r.redirectUrl() == null
                    && !r.action().equals("app_approval")) {
                outcome = new ProcessorOutcome.ActionRequired(r.action(), ServletUriComponentsBuilder
                        .fromCurrentContextPath().path("/processor/operations/{key}/challenge")
                        .queryParamIfPresent("return_url", java.util.Optional.ofNullable(authorize.returnUrl()))
                        .buildAndExpand(key).encode().toUriString());
            }
        } else {
            String authorizationKey = body.path("authorization_key").stringValue(null);
            if (key == null || currency == null || authorizationKey == null || !body.path("amount").isIntegralNumber()) {
                return ResponseEntity.badRequest().body(Map.of("result", "declined", "error_code", "invalid_request",
                        "message", "operation_key, authorization_key, amount and currency are required"));
            }
            long amount = body.path("amount").longValue();
            outcome = switch (call) {
                case "capture" ->
                        processor.capture(new PaymentProcessor.Capture(key, authorizationKey, amount, currency));
                case "refund" -> processor.refund(new PaymentProcessor.Refund(key, authorizationKey, amount, currency));
                default -> processor.release(new PaymentProcessor.Release(key, authorizationKey, amount, currency));
            };
        }
        if (!delay.isZero()) {
            Thread.sleep(delay);
        }
        return processorAnswer(outcome);
    }

    @GetMapping(value = "/processor/operations/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> processorStatus(@PathVariable String key,
                                      @RequestHeader(value = "Authorization", required = false) String authorization) {
        authorize(authorization);
        ProcessorOutcome outcome = processor.status(key);
        if (outcome instanceof ProcessorOutcome.Declined d && d.neverReceived()) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("result", "not_found"));
        }
        return ResponseEntity.ok(processorProtocol.write(outcome));
    }

    /** Plays the customer on a 3-D Secure or bank page: {@code {"decision": "approve" | "decline" | "cancel"}}. */
    @PostMapping(value = "/processor/operations/{key}/decision", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> decide(@PathVariable String key, @RequestBody JsonNode body,
                             @RequestHeader(value = "Authorization", required = false) String authorization) {
        authorize(authorization);
        SandboxProcessor.Decision decision = Arrays.stream(SandboxProcessor.Decision.values())
                .filter(d -> d.name().equalsIgnoreCase(body.path("decision").stringValue(""))).findFirst()
                .orElseThrow(() -> new org.springframework.web.server.ResponseStatusException(HttpStatus.BAD_REQUEST));
        return ResponseEntity.ok(processorProtocol.write(processor.decide(key, decision)));
    }

    /** The customer's page for a 3-D Secure or bank step: Approve or Decline, then back to the checkout. */
    @GetMapping(value = "/processor/operations/{key}/challenge", produces = MediaType.TEXT_HTML_VALUE)
    String challenge(@PathVariable String key, @RequestParam(name = "return_url", required = false) String returnUrl) {
        String action = HtmlUtils.htmlEscape(ServletUriComponentsBuilder.fromCurrentRequestUri().replaceQuery(null)
                .toUriString());
        String back = returnUrl == null ? "" : HtmlUtils.htmlEscape(returnUrl);
        return """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Simulated bank</title>
                <meta name="viewport" content="width=device-width, initial-scale=1"></head>
                <body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">
                <h1>Simulated bank</h1><p>The provider simulator plays the customer's bank: approve or decline.</p>
                <form method="post" action="%1$s"><input type="hidden" name="return_url" value="%2$s">
                <button name="decision" value="approve">Approve</button>
                <button name="decision" value="decline">Decline</button></form></body></html>
                """.formatted(action, back);
    }

    @PostMapping(value = "/processor/operations/{key}/challenge", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    ResponseEntity<?> challengeAnswered(@PathVariable String key, @RequestParam String decision,
                                        @RequestParam(name = "return_url", required = false) String returnUrl) {
        processor.decide(key, decision.equals("approve") ? SandboxProcessor.Decision.APPROVE
                : SandboxProcessor.Decision.DECLINE);
        if (returnUrl == null || !(returnUrl.startsWith("https://") || returnUrl.startsWith("http://"))) {
            return ResponseEntity.ok("Answered; no return_url to go back to.");
        }
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(java.net.URI.create(returnUrl)).build();
    }

    private ResponseEntity<?> processorAnswer(ProcessorOutcome outcome) {
        return switch (outcome) {
            case ProcessorOutcome.Approved a -> ResponseEntity.ok(processorProtocol.write(a));
            case ProcessorOutcome.Declined d -> ResponseEntity.unprocessableContent().body(processorProtocol.write(d));
            case ProcessorOutcome.ActionRequired r -> ResponseEntity.accepted().body(processorProtocol.write(r));
            case ProcessorOutcome.Accepted a -> ResponseEntity.accepted().body(processorProtocol.write(a));
            case ProcessorOutcome.Unknown u -> ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).build();
        };
    }

    @GetMapping(value = "/_ledger", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> ledger(@RequestHeader(value = "Authorization", required = false) String authorization) {
        authorize(authorization);
        return Map.of("operations", sandbox.ledger(), "processor_operations", processor.ledger());
    }

    private VoucherSource source(RedemptionType type, JsonNode body) {
        JsonNode source = body.get("source");
        if (source == null || !source.isObject()) {
            return null;
        }
        Map<String, String> fields = json.convertValue(source, new TypeReference<>() {
        });
        boolean valid = type.sourceFields().stream().allMatch(f -> fields.get(f.name()) != null
                && f.pattern().matcher(fields.get(f.name())).matches());
        return valid ? VoucherSource.of(type, fields) : null;
    }

    private static RedemptionType type(String provider) {
        return Arrays.stream(RedemptionType.values()).filter(t -> t.providerPrefix().equals(provider)).findFirst()
                .orElseThrow(() -> new org.springframework.web.server.ResponseStatusException(HttpStatus.NOT_FOUND));
    }

    private void authorize(String authorization) {
        if (apiKey.length == 0) {
            return;
        }
        byte[] given = authorization != null && authorization.startsWith("Bearer ")
                ? authorization.substring(7).getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(given, apiKey)) {
            throw new org.springframework.web.server.ResponseStatusException(HttpStatus.UNAUTHORIZED);
        }
    }
}
