package io.tender.dashboard;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code tender.dashboard.*}: the session and sign-in rules of decisions §11 and §13, settable so that tests (and
 * operators with stricter policies) can shorten them.
 *
 * @param idleTimeout              a signed-in session ends after this long without a request
 * @param absoluteTimeout          and after this long since sign-in, however busy
 * @param signInLinkValidity       how long a one-time sign-in link (first start, invitation, admin API) can be used
 * @param failedSignInsPerAccount  failed sign-ins allowed per email address in {@code accountWindow}
 * @param accountWindow            the window of {@code failedSignInsPerAccount}
 * @param failedSignInsPerAddress  failed sign-ins allowed per client address (IPv6: per /64) in {@code addressWindow}
 * @param addressWindow            the window of {@code failedSignInsPerAddress}
 * @param ownerEmail               the email of the owner of merchant {@code default} made at the very first start
 * @param reauthenticationWindow   how long re-entering the password (or a code) counts for the sensitive actions
 *                                 (§13); zero asks at every such action
 */
@ConfigurationProperties("tender.dashboard")
record DashboardSettings(
        @DefaultValue("PT30M") Duration idleTimeout,
        @DefaultValue("PT12H") Duration absoluteTimeout,
        @DefaultValue("PT24H") Duration signInLinkValidity,
        @DefaultValue("10") int failedSignInsPerAccount,
        @DefaultValue("PT15M") Duration accountWindow,
        @DefaultValue("20") int failedSignInsPerAddress,
        @DefaultValue("PT1M") Duration addressWindow,
        @DefaultValue("owner@localhost") String ownerEmail,
        @DefaultValue("PT5M") Duration reauthenticationWindow) {

    DashboardSettings {
        if (reauthenticationWindow.isNegative()) {
            throw new IllegalArgumentException(
                    "tender.dashboard.reauthentication-window must not be negative (PT0S asks every time)");
        }
    }
}
