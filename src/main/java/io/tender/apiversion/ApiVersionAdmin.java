package io.tender.apiversion;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.JsonInput;
import io.tender.api.ProblemCode;
import io.tender.api.Timestamps;
import io.tender.auth.AdminAccess;
import io.tender.auth.Merchants;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.Set;

/**
 * The operators' way to move a merchant's pinned version: {@code PATCH /admin/merchants/{merchant}} with
 * {@code {"api_version": "2026-03-16"}} (decisions §15), beside {@code auth}'s admin API and under its token. Any
 * version Tender serves may be set; an upgrade may then be rolled back by the owner like their own.
 */
@Hidden
@RestController
record ApiVersionAdmin(AdminAccess access, PinnedVersions pinned, Merchants merchants) {

    /** The merchant as the admin API shows it, with its pin. */
    record PinnedMerchant(String id, String name, String createdAt, String apiVersion, String apiVersionPrevious,
                          String rollbackUntil) {
    }

    @PatchMapping("/admin/merchants/{merchant}")
    PinnedMerchant pin(HttpServletRequest request, @PathVariable String merchant,
                       @RequestBody(required = false) JsonNode body) {
        access.authorize(request);
        Merchants.Merchant found = access.merchant(merchant);
        JsonInput in = JsonInput.body(body).allow(Set.of("api_version"));
        ApiVersion version = ApiVersions.read(in, "api_version", true);
        in.throwIfInvalid();
        if (pinned.set(found.id(), version) instanceof PinnedVersions.Change.Refused(String reason)) {
            throw new ApiException(ProblemCode.CONFLICT, reason);
        }
        Merchants.Merchant now = merchants.byId(found.id()).orElseThrow();
        PinnedVersions.Pin pin = pinned.pin(found.id()).orElseThrow();
        return new PinnedMerchant(now.id(), now.name(), Timestamps.format(now.createdAt()), now.apiVersion(),
                pin.previous() == null ? null : pin.previous().wire(),
                pin.rollbackUntil() == null ? null : Timestamps.format(pin.rollbackUntil()));
    }
}
