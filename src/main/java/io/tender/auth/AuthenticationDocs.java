package io.tender.auth;

import io.swagger.v3.oas.models.Operation;
import io.tender.api.ApiConventions;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;

/**
 * Documents what {@link Authentication} answers on every operation that needs a key: 401 without a valid key, 403
 * for a public key where the operation is not {@link PublicKeyAllowed}, 429 past the key's request rate.
 */
@Component
class AuthenticationDocs implements GlobalOperationCustomizer {

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        if (!ApiConventions.authenticated(handler)) {
            return operation;
        }
        ApiConventions.addIfAbsent(operation, 401,
                "`unauthorized` or `missing_authorization`: no valid API key in `Authorization: Bearer <key>`");
        if (!handler.hasMethodAnnotation(PublicKeyAllowed.class)) {
            ApiConventions.addIfAbsent(operation, 403, "`operation_not_allowed`: a public key may not call this");
        }
        ApiConventions.addIfAbsent(operation, 429, "`too_many_requests`: this key's request rate is used up; retry "
                + "after `Retry-After` seconds");
        return operation;
    }
}
