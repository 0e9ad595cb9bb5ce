package io.tender.provider;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.ProblemResponse;
import io.tender.api.ApiException;
import io.tender.api.JsonInput;
import io.tender.api.ProblemCode;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import io.tender.ratelimit.RateLimits;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

/**
 * Stored Value (decisions §2): a voucher's balance at its provider, with the same source validation as a create.
 * It never changes a redemption. Provider refusals are 422 with the provider's code in the detail; a provider that
 * cannot be reached is 503. Lookups are rate-limited per key (decisions §9): each one says whether a PIN is valid.
 */
@RestController
@Tag(name = "Stored value", description = "Balance and voucher lookups at providers.")
record StoredValueController(VoucherProviders providers, IdempotentRequests idempotent, RateLimits rateLimits) {

    @JsonPropertyOrder({"type", "balance", "currency", "source", "provider_metadata"})
    @Schema(name = "StoredValueBalance")
    record BalanceView(String type, long balance, String currency,
                       @Schema(description = "The source, secrets masked") Map<String, String> source,
                       Map<String, Object> providerMetadata) {
    }

    @Schema(name = "StoredValueLookupRequest")
    record LookupRequest(@Schema(requiredMode = Schema.RequiredMode.REQUIRED,
            allowableValues = {"vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c"}) String type,
                         @Schema(requiredMode = Schema.RequiredMode.REQUIRED,
                                 description = "As for creating a redemption of the type") Map<String, String> source) {
    }

    @PostMapping(value = "/stored_value/lookup", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Look up a voucher's balance", requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(
            required = true, content = @Content(schema = @Schema(implementation = LookupRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = BalanceView.class)))
    @ProblemResponse(status = 422, description = "The type has no lookup, or the provider refused")
    @ProblemResponse(status = 429, description = "Too many lookups with this key (see Retry-After)")
    ResponseEntity<byte[]> lookup(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        // First of all: a lookup tells whether a PIN is valid, so a key may not try them fast (decisions §9). A
        // refused lookup reads nothing and leaves its Idempotency-Key unused.
        rateLimits.balanceLookup(caller.keyId());
        JsonInput in = JsonInput.body(body).allow(Set.of("type", "source"));
        String typeName = in.string("type", true);
        RedemptionType type = typeName == null ? null : RedemptionType.fromWire(typeName).orElse(null);
        in.check(typeName == null || type != null, "type", "must be one of " + RedemptionType.allowedValues());
        JsonInput sourceInput = in.object("source", true);
        VoucherSource source = type == null || sourceInput == null ? null : VoucherSource.read(type, sourceInput);
        in.throwIfInvalid();
        VoucherProvider provider = providers.forMode(caller.mode(), type);
        return idempotent.executeWithoutTransaction(caller, request, body, () -> {
            // Inside the keyed work: a 422 is an answer about the type, stored and replayed like the provider's own.
            if (!provider.capabilities().lookup()) {
                throw ApiException.notPossible("Balance lookups are not available for " + type.wire() + ".");
            }
            // The provider's texts never carry the secret onwards (decisions §9).
            return switch (ProviderText.redacted(provider.lookup(source), source)) {
                case VoucherProvider.Lookup.Balance b -> new IdempotentRequests.Result(200,
                        new BalanceView(type.wire(), b.balance(), b.currency(), source.masked(), b.metadata()));
                case VoucherProvider.Lookup.Refused r when r.errorCode().endsWith(".transport_error") ->
                        throw new ApiException(ProblemCode.SERVICE_UNAVAILABLE, "The provider could not be reached.");
                case VoucherProvider.Lookup.Refused r -> throw ApiException.notPossible(
                        "The provider refused the lookup: " + r.errorCode() + " (" + r.message() + ").");
            };
        });
    }
}
