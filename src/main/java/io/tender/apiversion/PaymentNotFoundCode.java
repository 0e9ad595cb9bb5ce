package io.tender.apiversion;

import io.tender.api.ProblemCode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Set;

/** 2026-03-16: the error code {@code payment_not_found}; before it, such a 404 said {@code resource_not_found}. */
final class PaymentNotFoundCode implements VersionChange {

    @Override
    public ApiVersion version() {
        return ApiVersion.of("2026-03-16");
    }

    @Override
    public String title() {
        return "The error code `payment_not_found`";
    }

    @Override
    public List<String> details() {
        return List.of("A payment or payment session that does not exist (or is another merchant's, or of the other "
                + "mode) answers 404 with `code` `resource_not_found`, and its `type` and `title` likewise, not "
                + "`payment_not_found`.");
    }

    /** Where a 404 says {@code payment_not_found}: payments (their captures, voids and refunds) and sessions. */
    @Override
    public Set<String> paths() {
        return Set.of("/collect/payments", "/collect/payment_sessions");
    }

    @Override
    public Set<String> eventTypes() {
        return Set.of();
    }

    @Override
    public void renderProblemDown(ObjectNode problem) {
        String code = ProblemCode.PAYMENT_NOT_FOUND.code();
        if (!problem.path("code").stringValue("").equals(code)) {
            return;
        }
        ProblemCode before = ProblemCode.RESOURCE_NOT_FOUND;
        problem.put("code", before.code());
        String type = problem.path("type").stringValue("");
        if (type.endsWith("/" + code)) {
            problem.put("type", type.substring(0, type.length() - code.length()) + before.code());
        }
        JsonTrees.replaceValue(problem, "title", ProblemCode.PAYMENT_NOT_FOUND.title(), before.title());
    }
}
