package io.tender.apiversion;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Set;

/** 2026-03-15: a session's {@code checkout_options.display_pay_button} was {@code displayPayButton} before. */
final class DisplayPayButtonRenamed implements VersionChange {

    static final String OLD = "displayPayButton";
    static final String NEW = "display_pay_button";
    private static final String FIELD_BEFORE = "options.checkout_options." + OLD;
    private static final String FIELD = "options.checkout_options." + NEW;

    @Override
    public ApiVersion version() {
        return ApiVersion.of("2026-03-15");
    }

    @Override
    public String title() {
        return "`checkout_options.display_pay_button` replaces `displayPayButton`";
    }

    @Override
    public List<String> details() {
        return List.of("A payment session's `options.checkout_options` names the pay button's setting "
                + "`displayPayButton`, not `display_pay_button`: in `POST /collect/payment_sessions`, in every answer "
                + "that holds a session, in `payment_session.*` events, and in the `errors` of a refused request.");
    }

    @Override
    public Set<String> paths() {
        return Set.of("/collect/payment_sessions");
    }

    @Override
    public Set<String> eventTypes() {
        return Set.of("payment_session.");
    }

    @Override
    public void readUp(Route route, ObjectNode body) {
        if (route.is("POST", "/collect/payment_sessions")) {
            JsonTrees.rename(JsonTrees.objectAt(body, "options", "checkout_options"), OLD, NEW);
        }
    }

    @Override
    public void renderDown(ObjectNode object, PaymentProgress payments) {
        if (ApiObject.PAYMENT_SESSION.is(object)) {
            JsonTrees.rename(JsonTrees.objectAt(object, "options", "checkout_options"), NEW, OLD);
        }
    }

    /** A refusal names the field as the client sent it. */
    @Override
    public void renderProblemDown(ObjectNode problem) {
        for (JsonNode error : problem.path("errors")) {
            if (error instanceof ObjectNode field) {
                JsonTrees.replaceValue(field, "field", FIELD, FIELD_BEFORE);
            }
        }
        if (problem.get("detail") != null && problem.get("detail").isString()
                && problem.get("detail").stringValue().startsWith(FIELD + ":")) {
            problem.put("detail", FIELD_BEFORE + problem.get("detail").stringValue().substring(FIELD.length()));
        }
    }
}
