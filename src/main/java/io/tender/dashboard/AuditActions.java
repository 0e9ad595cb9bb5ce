package io.tender.dashboard;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The audit log's actions in words, for its page and its filter. A slice that writes a new action adds its words
 * here; until then the page shows the action's code as it is stored.
 */
final class AuditActions {

    /** Each action's words, in the order the filter offers them. */
    static final Map<String, String> WORDS = words(
            "sign_in.succeeded", "Signed in",
            "sign_in.password_accepted", "Password accepted, code asked",
            "sign_in.code_failed", "Sign-in code failed",
            "sign_in.failed", "Sign-in failed",
            "sign_in.throttled", "Sign-in refused: too many failures",
            "password.set", "Chose a password",
            "second_factor.enabled", "Turned two-step sign-in on",
            "second_factor.disabled", "Turned two-step sign-in off",
            "reauthentication.succeeded", "Confirmed their password",
            "reauthentication.failed", "Password confirmation failed",
            "reauthentication.throttled", "Password confirmation refused: too many failures",
            "team.invited", "Invited a member",
            "team.role_changed", "Changed a member's role",
            "team.removed", "Removed a member",
            "payment.capture", "Captured a payment",
            "payment.void", "Voided a payment",
            "payment.refund", "Refunded a payment",
            "api_version.upgraded", "Upgraded the API version",
            "api_version.rolled_back", "Rolled the API version back");

    private AuditActions() {
    }

    static String words(String action) {
        return WORDS.getOrDefault(action, action);
    }

    private static Map<String, String> words(String... pairs) {
        Map<String, String> words = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            words.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(words);
    }
}
