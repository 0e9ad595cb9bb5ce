package io.tender.api;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import org.springdoc.core.customizers.ServerBaseUrlCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document (springdoc). swagger-core reads our types with Jackson 2, which does not know the API's
 * snake_case naming (configured for Jackson 3 in application.yml); without this, every field is documented in
 * camelCase. (Jackson 3's {@code JsonNode} types cannot be introspected by it either: give such fields a
 * {@code @Schema(implementation = ...)}.)
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(info = @Info(title = "Tender API", version = "1.0.0",
        description = "Voucher redemptions, billing and collect. Errors are application/problem+json (RFC 9457)."),
        security = @SecurityRequirement(name = "bearer"))
// No bearerFormat: the API spec's "JWT-style bearer format" is only the header's form; our keys are opaque strings,
// and a generator told JWT may offer to decode them (decisions §14).
@SecurityScheme(name = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "An API key: sk_test_... (test mode) or sk_... (live mode), an opaque string.")
class OpenApiDocument {

    /**
     * The document's {@code servers} entry is the configured public base URL (as {@code session_url}'s), never the
     * request's {@code Host}, which a client may forge (decisions §12).
     */
    @Bean
    ServerBaseUrlCustomizer publicServer(Problems problems) {
        return (requestUrl, request) -> problems.publicBaseUrl();
    }

    @Bean
    ModelResolver snakeCaseModelResolver() {
        return new ModelResolver(Json31.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE))
                .openapi31(true);
    }
}
