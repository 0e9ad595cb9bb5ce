package io.tender.webhook;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/**
 * {@code tender.webhooks.*}. The defaults live here and only here (decisions §5 and §9; the fairness numbers are
 * explained in docs/DECISIONS.md).
 *
 * @param retrySchedule          pause after the 1st, 2nd, ... failed attempt; when it is used up the delivery fails
 * @param jitter                 each pause is stretched or shrunk at random by up to this fraction
 * @param timeout                an attempt succeeds only with a 2xx answer within this time (decisions §5: 15 s)
 * @param maxConcurrency         attempts in flight at once in one instance: the delivery pool
 * @param merchantConcurrency    attempts in flight at once for one merchant and mode in one instance: its share of the
 *                               pool, so a merchant whose endpoints hang cannot hold the whole pool
 * @param endpointConcurrency    attempts in flight at once for one endpoint in one instance
 * @param maxEndpoints           webhook endpoints a merchant may have per mode
 * @param pollInterval           how long the dispatcher sleeps when nothing is due
 * @param allowPrivateTargets    let TEST-mode endpoints target loopback and private addresses (a developer's laptop);
 *                               live mode is never allowed to
 */
@ConfigurationProperties("tender.webhooks")
public record WebhookSettings(
        @DefaultValue({"PT5S", "PT5M", "PT30M", "PT2H", "PT5H", "PT10H", "PT14H", "PT20H", "PT24H"}) List<Duration> retrySchedule,
        @DefaultValue("0.1") double jitter,
        @DefaultValue("PT15S") Duration timeout,
        @DefaultValue("16") int maxConcurrency,
        @DefaultValue("4") int merchantConcurrency,
        @DefaultValue("2") int endpointConcurrency,
        @DefaultValue("16") int maxEndpoints,
        @DefaultValue("PT1S") Duration pollInterval,
        @DefaultValue("false") boolean allowPrivateTargets) {

    public WebhookSettings {
        if (retrySchedule.isEmpty() || retrySchedule.stream().anyMatch(d -> d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException("tender.webhooks.retry-schedule must list positive durations");
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("tender.webhooks.jitter must be at least 0 and below 1");
        }
        if (maxConcurrency < 1) {
            throw new IllegalArgumentException("tender.webhooks.max-concurrency must be at least 1");
        }
        if (merchantConcurrency < 1 || merchantConcurrency > maxConcurrency) {
            throw new IllegalArgumentException(
                    "tender.webhooks.merchant-concurrency must be at least 1 and at most tender.webhooks.max-concurrency");
        }
        if (endpointConcurrency < 1 || endpointConcurrency > merchantConcurrency) {
            throw new IllegalArgumentException("tender.webhooks.endpoint-concurrency must be at least 1 and at most "
                    + "tender.webhooks.merchant-concurrency");
        }
        if (maxEndpoints < 1) {
            throw new IllegalArgumentException("tender.webhooks.max-endpoints must be at least 1");
        }
    }

    /**
     * How long a claimed attempt belongs to the instance that claimed it: longer than the request timeout, so only
     * an attempt whose instance died is taken up again.
     */
    Duration lease() {
        return timeout.plusSeconds(15);
    }
}
