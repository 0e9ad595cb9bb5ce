package io.tender.api;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * The clock whose time decides what is due (a subscription's charges, notices and retries; a mandate's execution
 * dates): the system's, in UTC. Tests that move time declare their own {@link Clock} bean instead.
 */
@Configuration(proxyBeanMethods = false)
class SystemClock {

    @Bean
    @ConditionalOnMissingBean(Clock.class)
    Clock clock() {
        return Clock.systemUTC();
    }
}
