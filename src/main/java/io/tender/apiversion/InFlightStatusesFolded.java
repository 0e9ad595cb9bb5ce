package io.tender.apiversion;

import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Set;

/**
 * 2026-06-01: a payment's in-flight statuses fold into {@code pending}. Before, {@code pending} was told apart as
 * {@code initiating}, {@code pending_action} and {@code processing}; the stored payment knows which it is now
 * ({@link PaymentProgress}). An object that says {@code pending} of a payment no longer in flight (possible only in an
 * event payload, and no event carries a pending payment today) reads {@code processing}: in flight, stage unknown.
 */
final class InFlightStatusesFolded implements VersionChange {

    static final String PENDING = "pending";

    @Override
    public ApiVersion version() {
        return ApiVersion.of("2026-06-01");
    }

    @Override
    public String title() {
        return "A payment's in-flight statuses fold into `pending`";
    }

    @Override
    public List<String> details() {
        return List.of("A payment in flight has `status` `initiating` (recorded, not yet sent to the processor), "
                + "`pending_action` (the customer must act: 3-D Secure, a bank app's approval, a redirect) or "
                + "`processing` (the processor has it and has not answered), not `pending`: in answers and events. "
                + "The list filter `status` takes `pending` for all three.");
    }

    @Override
    public Set<String> paths() {
        return Set.of("/collect/payments");
    }

    @Override
    public Set<String> eventTypes() {
        return Set.of("payment.", "payment_page.");
    }

    @Override
    public void renderDown(ObjectNode object, PaymentProgress payments) {
        if (ApiObject.PAYMENT.is(object) && object.path("status").stringValue("").equals(PENDING)) {
            object.put("status", payments.stageOf(object.get("id").stringValue())
                    .orElse(PaymentProgress.Stage.PROCESSING).wire());
        }
    }
}
