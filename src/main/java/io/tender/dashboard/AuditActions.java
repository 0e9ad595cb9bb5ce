package io.tender.dashboard;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every action of the audit log, with its words (decisions §13): the log's page shows them and its filter offers each
 * of them, in this order. {@link AuditLog.Entry} refuses an action that is not here, so a new action cannot reach the
 * log without words or a place in the filter.
 */
final class AuditActions {

    /** Each action's words, in the order the filter offers them. */
    static final Map<String, String> WORDS = words(
            "sign_in.succeeded", "Signed in",
            "sign_in.password_accepted", "Password accepted, code asked",
            "sign_in.code_failed", "Sign-in code failed",
            "sign_in.failed", "Sign-in failed",
            "sign_in.throttled", "Sign-in refused: too many failures",
            "sign_in_link.refused", "Sign-in link refused: a password was chosen already",
            "password.set", "Chose a password",
            "second_factor.enabled", "Turned two-step sign-in on",
            "second_factor.disabled", "Turned two-step sign-in off",
            "reauthentication.succeeded", "Confirmed their password",
            "reauthentication.failed", "Password confirmation failed",
            "reauthentication.throttled", "Password confirmation refused: too many failures",
            "team.invited", "Invited a member",
            "team.role_changed", "Changed a member's role",
            "team.removed", "Removed a member",
            "api_key.created", "Created an API key",
            "api_key.rolled", "Rolled an API key",
            "api_key.revoked", "Revoked an API key",
            "webhook_endpoint.created", "Added a webhook endpoint",
            "webhook_endpoint.disabled", "Disabled a webhook endpoint",
            "webhook_endpoint.enabled", "Enabled a webhook endpoint",
            "webhook_endpoint.secret_rotated", "Rotated a webhook signing secret",
            "webhook_endpoint.test_sent", "Sent a test event",
            "webhook_delivery.resent", "Resent a webhook delivery",
            "payment.capture", "Captured a payment",
            "payment.void", "Voided a payment",
            "payment.refund", "Refunded a payment",
            "payment_request.created", "Created a payment link",
            "payment_request.cancelled", "Cancelled a payment link",
            "subscription.cancelled", "Cancelled a subscription",
            "mandate.cancelled", "Cancelled a mandate",
            "api_version.upgraded", "Upgraded the API version",
            "api_version.rolled_back", "Rolled the API version back");

    private AuditActions() {
    }

    /** An action's words; an entry written before its action was renamed shows its code. */
    static String words(String action) {
        return WORDS.getOrDefault(action, action);
    }

    private static Map<String, String> words(String... pairs) {
        Map<String, String> words = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (words.put(pairs[i], pairs[i + 1]) != null) {
                throw new IllegalStateException("the audit action " + pairs[i] + " is listed twice");
            }
        }
        return Collections.unmodifiableMap(words);
    }
}
