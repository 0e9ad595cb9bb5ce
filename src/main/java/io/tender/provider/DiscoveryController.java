package io.tender.provider;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.auth.Caller;
import io.tender.auth.PublicKeyAllowed;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/**
 * Discovery (decisions §2): the redemption types a key can use, with capabilities and the {@code source} fields,
 * derived from the provider registry and the types' own field rules. Public keys may call it.
 */
@RestController
@Tag(name = "Redemption types", description = "Supported redemption types, their capabilities and required source fields.")
class DiscoveryController {

    @Schema(name = "RedemptionTypeList")
    record TypeList(List<TypeView> data) {
    }

    @JsonPropertyOrder({"type", "category", "name", "description", "capabilities", "required_fields"})
    @Schema(name = "RedemptionTypeInfo")
    record TypeView(@Schema(example = "vouchers.one_voucher") String type, @Schema(example = "vouchers") String category,
                    String name, String description, Capabilities capabilities, List<Field> requiredFields) {
    }

    @JsonPropertyOrder({"reserve", "redeem", "refund", "lookup", "change_voucher"})
    record Capabilities(
            @Schema(description = "Create stops at `reserved`; confirm or reverse it later.") boolean reserve,
            boolean redeem,
            @Schema(description = "Reservations and redeems can be reversed.") boolean refund,
            @Schema(description = "`POST /stored_value/lookup` works for this type.") boolean lookup,
            @Schema(allowableValues = {"INLINE", "SMS", "NONE"}) String changeVoucher) {
    }

    // Not "Field": a reserved word of OpenAPI Generator's python client, which renames it with a warning.
    @Schema(name = "SourceField", description = "A property of the type's `source`.")
    @JsonPropertyOrder({"name", "type", "required", "sensitive", "description", "example"})
    record Field(String name, String type, boolean required, boolean sensitive, String description, String example) {
    }

    private final VoucherProviders providers;

    DiscoveryController(VoucherProviders providers) {
        this.providers = providers;
    }

    @PublicKeyAllowed
    @GetMapping(value = "/collect/redemptions/types", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "listRedemptionTypes", summary = "List redemption types",
            description = "The types this key's mode can redeem: the sandbox in test mode, the configured providers in live mode.")
    TypeList types(Caller caller) {
        return new TypeList(providers.available(caller.mode()).stream().map(provider -> {
            var c = provider.capabilities();
            RedemptionType type = provider.type();
            return new TypeView(type.wire(), type.category(), c.name(), c.description(),
                    new Capabilities(c.hold(), true, c.reverse(), c.lookup(), c.changeVoucher().name()),
                    type.sourceFields().stream().map(f -> new Field(f.name(), f.type(), f.required(), f.sensitive(),
                            f.description() + " (" + f.rule().replaceFirst("^must be ", "") + ")", f.example())).toList());
        }).toList());
    }
}
