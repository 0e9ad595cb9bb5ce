package io.tender.checkout;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.checkout.*}.
 *
 * @param attempts the hosted checkout's form posts per checkout session (decisions §9)
 */
@ConfigurationProperties("tender.checkout")
record CheckoutSettings(@DefaultValue Attempts attempts) {

    /**
     * A token bucket per checkout session: {@code burst} posts at once, one more back every {@code interval}.
     *
     * @param burst    the bucket's size
     * @param interval how long the bucket takes to get one post back
     */
    record Attempts(@DefaultValue("10") int burst, @DefaultValue("PT6S") Duration interval) {

        Attempts {
            if (burst < 1 || !interval.isPositive()) {
                throw new IllegalArgumentException("tender.checkout.attempts.burst must be at least 1 and interval "
                        + "a positive duration");
            }
        }
    }
}
