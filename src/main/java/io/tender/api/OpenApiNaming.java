package io.tender.api;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * springdoc reads schemas through swagger-core's own Jackson 2 mapper, which knows nothing of the snake_case the API
 * speaks (configured on Jackson 3); without this, the OpenAPI document would name properties in camelCase.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiNaming {

    @Bean
    ModelResolver snakeCaseModelResolver() {
        return new ModelResolver(Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
    }
}
