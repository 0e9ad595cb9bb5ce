package io.tender.api;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;

/** JSON as the API speaks it: snake_case, absent fields omitted (application.yml), and strict reading. */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    @Bean
    JsonMapperBuilderCustomizer strictJson() {
        return builder -> builder
                // {"amount": 1, "amount": 2} is ambiguous; refuse it rather than guess which one was meant.
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // Fields go out in the order the spec's tables list them (record component order).
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY);
    }
}
