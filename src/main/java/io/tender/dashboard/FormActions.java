package io.tender.dashboard;

import io.tender.api.ApiException;
import io.tender.api.Rejections;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.Outcome;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The steps every action form of a dashboard page takes, written once (decisions §11): the form must carry its key
 * (else its page again, 400) and fields the page can take (else the same); unconfirmed, the confirmation page, where
 * one is asked; confirmed, the owning module's flow under the form's Idempotency-Key, so that the form sent twice (a
 * double click, a reload) acts once; done, one audit row and the page after it (a 303 back, mostly); refused, its page
 * again with the refusal's words and status. A form sent again does nothing more: it is answered as the first sending
 * was, without a second audit row. A page's handler says only what is its own ({@link Steps}).
 */
@Component
record FormActions(IdempotentRequests idempotent, Rejections rejections, AuditLog audit) {

    /** A form's Idempotency-Key: a UUID the page made. */
    static final Pattern KEY = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    static final String EXPIRED = "This form has expired. Open the page again and repeat the action.";
    static final String SENT_BEFORE = "This form was sent before and refused; nothing more was done.";
    /** The fields a form posts that are not part of what it asks (its key, its confirmation, its CSRF token). */
    private static final Set<String> NOT_ASKED = Set.of("idempotency_key", "confirmed", "_csrf");

    /**
     * A posted action form: its key, whether the person confirmed ({@code confirmed=yes}), who sent it in which mode,
     * and the exchange it came in.
     */
    record Form(String key, String confirmed, SignedInUser user, String mode, HttpServletRequest request,
                HttpServletResponse response) {

        Caller caller() {
            return Caller.system(user.merchantId(), Mode.fromWire(mode));
        }

        /** The audit row of {@code action} on {@code target} by this form's user, with the state before and after. */
        AuditLog.Entry audit(String action, String target, String before, String after) {
            return new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), action, target, mode, before,
                    after);
        }
    }

    /** What one page's action is: its page, its confirmation, its flow, its audit row and what follows it. */
    interface Steps<V> {

        /** The page the form is on, showing {@code error} (null: none). */
        String page(String error);

        /** Why the form's fields cannot be taken (answered 400 on its page, nothing done), or null. */
        default String badInput() {
            return null;
        }

        /** The confirmation page, or null when the action asks none (or the form was confirmed). */
        default String confirmation() {
            return null;
        }

        /**
         * The page asking the signed-in user to confirm who they are before this action ({@link Reauthentication}),
         * or empty when the action asks none or they confirmed within the window.
         */
        default Optional<String> identity() {
            return Optional.empty();
        }

        /** The owning module's flow, under the form's key. */
        Outcome<V> act(KeyedRequest request);

        /** The audit row of the action done with {@code view}, or null when there is nothing to record. */
        AuditLog.Entry audited(V view);

        /**
         * The page after the action; sent before, the form did nothing more and {@code view} is what the first sending
         * answered (null when that cannot be read back).
         */
        String done(V view);

        /** The page for a refusal: by default the form's page with the problem's words. */
        default String refused(ApiException problem) {
            return page(problem.getMessage());
        }
    }

    /**
     * An action that moves its target to another status and sends the browser back to the target's page: its audit
     * row holds the status before and after ({@code {"status": …}}). A page says only how it shows itself, its
     * confirmation, its flow and what the flow's view says the status is now.
     */
    abstract static class StatusChange<V> implements Steps<V> {
        final Form form;
        private final String action;
        private final String target;
        private final String before;
        private final String done;

        /** {@code action} done to {@code target}, which was {@code before}; {@code done}: the page after it. */
        StatusChange(Form form, String action, String target, String before, String done) {
            this.form = form;
            this.action = action;
            this.target = target;
            this.before = before;
            this.done = done;
        }

        /** The status the flow's view says the target has now. */
        abstract String after(V view);

        @Override
        public AuditLog.Entry audited(V view) {
            return form.audit(action, target, status(before), status(after(view)));
        }

        @Override
        public String done(V view) {
            return seeOther(form.response(), done);
        }

        static String status(String status) {
            return JsonNodeFactory.instance.objectNode().put("status", status).toString();
        }
    }

    /** Runs the form's action through its steps; returns the view to render (null once a redirect is set). */
    <V> String run(Form form, Steps<V> steps) {
        if (form.key() == null || !KEY.matcher(form.key()).matches()) {
            form.response().setStatus(HttpStatus.BAD_REQUEST.value());
            return steps.page(EXPIRED);
        }
        String bad = steps.badInput();
        if (bad != null) {
            form.response().setStatus(HttpStatus.BAD_REQUEST.value());
            return steps.page(bad);
        }
        if (!"yes".equals(form.confirmed())) {
            String confirmation = steps.confirmation();
            if (confirmation != null) {
                return confirmation;
            }
        }
        Optional<String> identity = steps.identity();
        if (identity.isPresent()) {
            return identity.get();
        }
        return switch (steps.act(keyed(form))) {
            case Outcome.Done<V>(V view) -> {
                AuditLog.Entry entry = steps.audited(view);
                if (entry != null) {
                    audit.append(entry, form.request());
                }
                yield steps.done(view);
            }
            case Outcome.Replayed<V> replayed when replayed.done() -> steps.done(replayed.view());
            case Outcome.Replayed<V> replayed -> {
                form.response().setStatus(replayed.status());
                yield steps.page(replayed.detail() != null ? replayed.detail() : SENT_BEFORE);
            }
            case Outcome.Refused<V>(var rejection) -> {
                ApiException problem = rejections.problem(rejection);
                form.response().setStatus(problem.status());
                yield steps.refused(problem);
            }
        };
    }

    /** Sends the browser to {@code location} (303 See Other); the caller renders nothing. */
    static String seeOther(HttpServletResponse response, String location) {
        response.setStatus(HttpStatus.SEE_OTHER.value());
        response.setHeader(HttpHeaders.LOCATION, location);
        return null;
    }

    /**
     * The form's key bound to what the form asks: the page's path and its fields but for its key, confirmation and
     * CSRF token, so that the same form sent again replays and a different one under the same key is refused.
     */
    KeyedRequest keyed(Form form) {
        ObjectNode asked = JsonNodeFactory.instance.objectNode();
        form.request().getParameterMap().forEach((name, values) -> {
            if (!NOT_ASKED.contains(name)) {
                var list = asked.putArray(name);
                for (String value : values) {
                    list.add(value);
                }
            }
        });
        return idempotent.keyed(form.key(), "POST", form.request().getRequestURI(), asked, form.request());
    }
}
