package io.tender.auth;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.JsonInput;
import io.tender.api.ProblemCode;
import io.tender.api.Timestamps;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operators' API for merchants and keys beyond bootstrap. It exists only when {@code TENDER_ADMIN_TOKEN} is set,
 * and takes that token as its bearer credential; merchants' API keys have no access to it. It shares the public port:
 * start-up refuses a token under 32 characters ({@code io.tender.secrets.UnsafeSettings}).
 */
@Hidden
@RestController
@RequestMapping("/admin")
record MerchantAdmin(Merchants merchants, ApiKeys keys, AdminAccess access) {

    record MerchantView(String id, String name, String createdAt, String apiVersion) {
        static MerchantView of(Merchants.Merchant m) {
            return new MerchantView(m.id(), m.name(), Timestamps.format(m.createdAt()), m.apiVersion());
        }
    }

    record KeyView(String id, String merchantId, String kind, String mode, String display, String key,
                   String createdAt, String revokedAt) {
        static KeyView of(ApiKeys.KeyInfo k) {
            return new KeyView(k.id(), k.merchantId(), k.kind().wire(), k.kind().mode().wire(), k.display(), null,
                    Timestamps.format(k.createdAt()), Timestamps.format(k.revokedAt()));
        }
    }

    @PostMapping("/merchants")
    ResponseEntity<MerchantView> createMerchant(HttpServletRequest request, @RequestBody JsonNode body) {
        authorize(request);
        JsonInput in = JsonInput.body(body).allow(Set.of("name"));
        String name = in.string("name", true, 1, 63, BootstrapKeys.MERCHANT_NAME,
                "must be lower-case letters, digits, '-' or '_'");
        in.throwIfInvalid();
        if (!merchants.createIfAbsent(name)) {
            throw new ApiException(ProblemCode.RESOURCE_ALREADY_EXISTS, "A merchant with this name exists.");
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(MerchantView.of(merchants.byName(name).orElseThrow()));
    }

    @GetMapping("/merchants")
    Map<String, List<MerchantView>> listMerchants(HttpServletRequest request) {
        authorize(request);
        return Map.of("data", merchants.all().stream().map(MerchantView::of).toList());
    }

    @PostMapping("/merchants/{merchant}/keys")
    ResponseEntity<KeyView> createKey(HttpServletRequest request, @PathVariable String merchant, @RequestBody JsonNode body) {
        authorize(request);
        var m = merchant(merchant);
        JsonInput in = JsonInput.body(body).allow(Set.of("kind"));
        String kind = in.string("kind", true);
        in.check(kind == null || Arrays.stream(KeyKind.values()).anyMatch(k -> k.wire().equals(kind)),
                "kind", "must be one of sk_test, pk_test, sk_live, pk_live");
        in.throwIfInvalid();
        var issued = keys.issue(m.id(), KeyKind.fromWire(kind));
        var info = keys.byId(issued.id()).orElseThrow();
        var view = KeyView.of(info);
        return ResponseEntity.status(HttpStatus.CREATED).body(new KeyView(view.id(), view.merchantId(), view.kind(),
                view.mode(), view.display(), issued.plainKey(), view.createdAt(), null));
    }

    @GetMapping("/merchants/{merchant}/keys")
    Map<String, List<KeyView>> listKeys(HttpServletRequest request, @PathVariable String merchant) {
        authorize(request);
        return Map.of("data", keys.of(merchant(merchant).id()).stream().map(KeyView::of).toList());
    }

    @PostMapping("/keys/{keyId}/revoke")
    KeyView revoke(HttpServletRequest request, @PathVariable String keyId) {
        authorize(request);
        keys.byId(keyId).orElseThrow(() -> ApiException.notFound("key"));
        keys.revoke(keyId);
        return KeyView.of(keys.byId(keyId).orElseThrow());
    }

    private Merchants.Merchant merchant(String idOrName) {
        return access.merchant(idOrName);
    }

    private void authorize(HttpServletRequest request) {
        access.authorize(request);
    }
}
