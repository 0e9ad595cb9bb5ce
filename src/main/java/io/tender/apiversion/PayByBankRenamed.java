package io.tender.apiversion;

import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Set;

/**
 * 2026-06-01: the payment method type {@code pay_by_bank} was {@code instant_eft} before, wherever a method type is
 * written: a payment's {@code payment_method_details} (its {@code type} and the key of its details), and the method
 * lists and choices of sessions, payment requests and payment pages.
 */
final class PayByBankRenamed implements VersionChange {

    static final String OLD = "instant_eft";
    static final String NEW = "pay_by_bank";
    private static final String VISIBLE = "visible_payment_methods";
    private static final String SELECTED = "selected_payment_method";

    @Override
    public ApiVersion version() {
        return ApiVersion.of("2026-06-01");
    }

    @Override
    public String title() {
        return "`pay_by_bank` replaces `instant_eft`";
    }

    @Override
    public List<String> details() {
        return List.of(
                "A payment paid by bank has `payment_method_details` `{\"type\": \"instant_eft\", \"instant_eft\": "
                        + "{\"bank\": …}}`, not `pay_by_bank`: in answers and in `payment.*` events.",
                "`visible_payment_methods` and `selected_payment_method` (of a session's `checkout_options`, a payment "
                        + "request, a payment page) say `instant_eft` in answers and events; requests may say either.");
    }

    @Override
    public Set<String> paths() {
        return Set.of("/collect/payments", "/collect/payment_sessions", "/collect/payment_requests",
                "/collect/payment_pages");
    }

    @Override
    public Set<String> eventTypes() {
        return Set.of("payment.", "payment_session.", "payment_request.", "payment_page.");
    }

    /** The method lists of a session's create and complete, a payment request's and a payment page's bodies. */
    @Override
    public void readUp(Route route, ObjectNode body) {
        methods(body, OLD, NEW);
        methods(JsonTrees.objectAt(body, "options", "checkout_options"), OLD, NEW);
    }

    @Override
    public void renderDown(ObjectNode object, PaymentProgress payments) {
        ApiObject.of(object).ifPresent(kind -> {
            switch (kind) {
                case PAYMENT -> {
                    ObjectNode details = JsonTrees.objectAt(object, "payment_method_details");
                    if (details != null && details.path("type").stringValue("").equals(NEW)) {
                        details.put("type", OLD);
                        JsonTrees.rename(details, NEW, OLD);
                    }
                }
                case PAYMENT_SESSION -> methods(JsonTrees.objectAt(object, "options", "checkout_options"), NEW, OLD);
                case PAYMENT_REQUEST, PAYMENT_PAGE -> methods(object, NEW, OLD);
                default -> {
                }
            }
        });
    }

    private static void methods(ObjectNode holder, String from, String to) {
        JsonTrees.replaceItems(holder, VISIBLE, from, to);
        JsonTrees.replaceValue(holder, SELECTED, from, to);
    }
}
