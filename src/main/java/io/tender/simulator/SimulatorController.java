package io.tender.simulator;

import io.tender.provider.ProviderOutcome;
import io.tender.provider.ProviderProtocol;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherSource;
import io.tender.provider.sandbox.SandboxProviders;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
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
    private final ProviderProtocol protocol;
    private final JsonMapper json;
    private final Duration delay;
    private final byte[] apiKey;

    SimulatorController(SandboxProviders sandbox, JsonMapper json,
                        @Value("${tender.simulator.delay:${SIMULATOR_DELAY:PT0S}}") Duration delay,
                        @Value("${tender.simulator.api-key:${SIMULATOR_API_KEY:}}") String apiKey) {
        this.sandbox = sandbox;
        this.protocol = new ProviderProtocol(json);
        this.json = json;
        this.delay = delay;
        this.apiKey = apiKey.getBytes(StandardCharsets.UTF_8);
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

    @GetMapping(value = "/_ledger", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> ledger(@RequestHeader(value = "Authorization", required = false) String authorization) {
        authorize(authorization);
        return Map.of("operations", sandbox.ledger());
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
