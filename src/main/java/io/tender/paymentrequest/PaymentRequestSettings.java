package io.tender.paymentrequest;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.payment-requests.*}.
 *
 * @param pushPollInterval how often each instance asks the processor about push requests waiting for the customer's
 *                         approval in the app
 */
@ConfigurationProperties("tender.payment-requests")
record PaymentRequestSettings(@DefaultValue("PT2S") Duration pushPollInterval) {

    PaymentRequestSettings {
        if (!pushPollInterval.isPositive()) {
            throw new IllegalArgumentException(
                    "tender.payment-requests.push-poll-interval must be a positive duration");
        }
    }
}
