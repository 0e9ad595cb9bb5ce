package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.Currencies;
import io.tender.api.FieldError;
import io.tender.api.Rejected;
import io.tender.api.Rejections;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.Outcome;
import io.tender.payment.CapturesAndVoids;
import io.tender.payment.PaymentFilter;
import io.tender.payment.PaymentSearch;
import io.tender.payment.PaymentStatus;
import io.tender.refund.PaymentRefunds;
import io.tender.refund.RefundReason;
import io.tender.refund.PaymentTimeline;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.json.JsonMapper;
import org.springframework.web.util.UriComponentsBuilder;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The Payments pages (decisions §11): the merchant's payments in the URL's mode, filtered and searched in SQL
 * ({@link PaymentSearch}) a page at a time, the whole filtered set as CSV, and one payment with its timeline
 * ({@link PaymentTimeline}). The filter form is a GET form, so a filtered list is a link a person can keep or share
 * with a teammate, and everything reads without JavaScript. The merchant is the signed-in user's.
 */
@Hidden
@Controller
record PaymentsController(PaymentSearch search, PaymentTimeline timeline, Merchants merchants, Rejections rejections,
                          CapturesAndVoids capturesAndVoids, PaymentRefunds refunds, FormActions actions,
                          JsonMapper json) {

    /** Rows on one page of the list. */
    static final int PAGE_SIZE = 25;
    /** The form's fields, in the order the page shows them, and the page's own parameter. */
    private static final List<String> FIELDS = List.of(PaymentFilter.ID, PaymentFilter.STATUS, PaymentFilter.METHOD,
            PaymentFilter.CREATED_FROM, PaymentFilter.CREATED_TO, PaymentFilter.AMOUNT_MIN, PaymentFilter.AMOUNT_MAX,
            PaymentFilter.CURRENCY, PaymentFilter.CUSTOMER_EMAIL, PaymentFilter.LAST4,
            PaymentFilter.EXTERNAL_REFERENCE);
    /** The fields the page folds under "More filters" (open when one of them is given). */
    private static final List<String> MORE_FILTERS = List.of(PaymentFilter.METHOD, PaymentFilter.CREATED_FROM,
            PaymentFilter.CREATED_TO, PaymentFilter.AMOUNT_MIN, PaymentFilter.AMOUNT_MAX, PaymentFilter.CURRENCY,
            PaymentFilter.EXTERNAL_REFERENCE);
    private static final String CURSOR = "cursor";

    @GetMapping("/dashboard/{mode:test|live}/payments")
    String list(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                HttpServletRequest request, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "payments", csrf, merchants);
        Map<String, String[]> form = request.getParameterMap();
        model.addAttribute("form", new FormValues(form));
        model.addAttribute("statuses", Arrays.stream(PaymentStatus.values()).map(PaymentStatus::wire).toList());
        model.addAttribute("filtered", FIELDS.stream().anyMatch(f -> new FormValues(form).given(f)));
        model.addAttribute("moreFilters", MORE_FILTERS.stream().anyMatch(f -> new FormValues(form).given(f)));
        String query = query(form, null);
        model.addAttribute("exportUrl", "/dashboard/" + mode + "/payments.csv" + query);
        try {
            PaymentSearch.Page page = search.page(user.merchantId(), Mode.fromWire(mode), PaymentFilter.read(form),
                    single(form, CURSOR), PAGE_SIZE);
            model.addAttribute("rows", page.rows().stream().map(ListedPayment::of).toList());
            model.addAttribute("nextUrl", page.nextCursor() == null ? null
                    : "/dashboard/" + mode + "/payments" + query(form, page.nextCursor()));
            model.addAttribute("firstUrl", single(form, CURSOR) == null ? null
                    : "/dashboard/" + mode + "/payments" + query);
            model.addAttribute("errors", Map.of());
        } catch (Rejected refused) {
            model.addAttribute("rows", List.of());
            model.addAttribute("errors", errors(refused));
            response.setStatus(HttpStatus.BAD_REQUEST.value());
        }
        return "dashboard/payments";
    }

    /**
     * The whole filtered set as CSV, written as the database gives the rows (never held in memory): the list's
     * filters, every page of them. A filter that cannot match answers the list with its errors instead.
     */
    @GetMapping("/dashboard/{mode:test|live}/payments.csv")
    String export(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                  HttpServletRequest request, HttpServletResponse response, Model model) throws IOException {
        Map<String, String[]> form = request.getParameterMap();
        PaymentFilter filter;
        try {
            filter = PaymentFilter.read(form);
        } catch (Rejected refused) {
            return list(mode, user, csrf, request, response, model);
        }
        response.setContentType("text/csv;charset=UTF-8");
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"payments-" + mode + "-"
                + LocalDate.now(ZoneOffset.UTC) + ".csv\"");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        Writer out = new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8);
        search.exportCsv(user.merchantId(), Mode.fromWire(mode), filter, out);
        out.flush();
        return null;
    }

    @GetMapping("/dashboard/{mode:test|live}/payments/{id}")
    String payment(@PathVariable String mode, @PathVariable String id,
                   @RequestParam(name = "done", required = false) String done,
                   @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                   Model model) {
        Chrome.add(model, user, mode, "payments", csrf, merchants);
        var found = find(user, mode, id);
        if (found.isEmpty()) {
            return notFound(mode, id, response, model);
        }
        model.addAttribute("notice", done == null ? null : DONE.get(done));
        return paymentPage(user, mode, found.get(), null, model);
    }

    /** What the page says after an action went through. */
    private static final Map<String, String> DONE = Map.of("capture", "Captured.", "void",
            "The authorization is voided.", "refund", "Refund made. Its outcome is on the timeline below.");

    /**
     * A money action of the payment's page (decisions §11): first a confirmation page that says what will happen,
     * then, confirmed, the module's own flow ({@link CapturesAndVoids}, {@link PaymentRefunds}, which the API's
     * requests run too) under the form's Idempotency-Key: a form sent twice does it once ({@link FormActions}). A done
     * action goes into the audit log with the payment's amounts before and after, and the browser is sent back to the
     * payment (303); a refusal shows the payment with the rule's words. Owners and developers only
     * ({@code DashboardSecurity}).
     */
    @PostMapping("/dashboard/{mode:test|live}/payments/{id}/{action:capture|void|refund}")
    String act(@PathVariable String mode, @PathVariable String id, @PathVariable String action,
               @RequestParam(name = "amount", required = false) String amountText,
               @RequestParam(name = "reason", required = false) String reason,
               @RequestParam(name = "idempotency_key", required = false) String key,
               @RequestParam(name = "confirmed", required = false) String confirmed,
               @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
               HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "payments", csrf, merchants);
        var found = find(user, mode, id);
        if (found.isEmpty()) {
            return notFound(mode, id, response, model);
        }
        var form = new FormActions.Form(key, confirmed, user, mode, request, response);
        return actions.run(form, new MoneyAction(form, found.get(), action, amountText, reason, model));
    }

    /** A capture, void or refund of {@code payment} as its form asks it. */
    private final class MoneyAction implements FormActions.Steps<Object> {
        private final FormActions.Form form;
        private final PaymentSearch.Row payment;
        private final String action;
        private final String amountText;
        private final String reason;
        private final Model model;
        private final Long amount;

        MoneyAction(FormActions.Form form, PaymentSearch.Row payment, String action, String amountText, String reason,
                    Model model) {
            this.form = form;
            this.payment = payment;
            this.action = action;
            this.amountText = amountText == null || amountText.isBlank() || action.equals("void") ? null
                    : amountText.trim();
            this.reason = reason == null || reason.isBlank() ? null : reason;
            this.model = model;
            this.amount = this.amountText == null ? null : minorUnits(this.amountText, payment.currency());
        }

        @Override
        public String page(String error) {
            return paymentPage(form.user(), form.mode(), payment, error, model);
        }

        @Override
        public String badInput() {
            if (action.equals("refund") && reason != null && !RefundReason.WIRE.contains(reason)) {
                return "Choose one of the reasons offered.";
            }
            if (amountText != null && amount == null) {
                return "Enter an amount such as " + HomeSummary.money(payment.currency(), 1050)
                        .substring(payment.currency().length() + 1) + " (in " + payment.currency() + ").";
            }
            return null;
        }

        @Override
        public String confirmation() {
            long shown = amount != null ? amount : action.equals("refund") ? refundable(form.caller(), payment)
                    : capturesAndVoids.capturable(form.caller(), payment.id());
            model.addAttribute("payment", ListedPayment.of(payment));
            model.addAttribute("action", action);
            model.addAttribute("amount", amountText == null ? "" : amountText);
            model.addAttribute("amountShown", HomeSummary.money(payment.currency(), shown));
            model.addAttribute("reason", reason);
            model.addAttribute("key", form.key());
            return "dashboard/payment-confirm";
        }

        @Override
        public Outcome<Object> act(KeyedRequest request) {
            Caller caller = form.caller();
            Outcome<?> outcome = switch (action) {
                case "capture" -> capturesAndVoids.capture(caller, payment.id(), request, null, amount, Map.of())
                        .outcome();
                case "void" -> capturesAndVoids.voidPayment(caller, payment.id(), request, null, Map.of()).outcome();
                default -> refunds.refund(caller, payment.id(), request, null, new PaymentRefunds.NewRefund(amount,
                        RefundReason.fromWire(reason).orElse(null), Map.of())).outcome();
            };
            @SuppressWarnings("unchecked")
            Outcome<Object> any = (Outcome<Object>) outcome;
            return any;
        }

        @Override
        public AuditLog.Entry audited(Object view) {
            PaymentSearch.Row after = find(form.user(), form.mode(), payment.id()).orElse(payment);
            return form.audit("payment." + action, payment.id(), amounts(payment), amounts(after));
        }

        @Override
        public String done(Object view) {
            return FormActions.seeOther(form.response(),
                    "/dashboard/" + form.mode() + "/payments/" + payment.id() + "?done=" + action);
        }
    }

    private String paymentPage(SignedInUser user, String mode, PaymentSearch.Row payment, String error, Model model) {
        Caller caller = Caller.system(user.merchantId(), Mode.fromWire(mode));
        long capturable = capturesAndVoids.capturable(caller, payment.id());
        long refundable = refundable(caller, payment);
        model.addAttribute("payment", ListedPayment.of(payment));
        model.addAttribute("error", error);
        model.addAttribute("currency", payment.currency());
        boolean acts = user.role() != Role.VIEWER;
        model.addAttribute("canCapture", acts && capturable > 0);
        model.addAttribute("canRefund", acts && refundable > 0);
        model.addAttribute("capturable", HomeSummary.money(payment.currency(), capturable));
        model.addAttribute("refundable", HomeSummary.money(payment.currency(), refundable));
        model.addAttribute("reasons", RefundReason.WIRE);
        // Each form its own key: sent twice (a double click, a reload), it acts once.
        model.addAttribute("captureKey", UUID.randomUUID().toString());
        model.addAttribute("voidKey", UUID.randomUUID().toString());
        model.addAttribute("refundKey", UUID.randomUUID().toString());
        model.addAttribute("timeline", timeline.of(user.merchantId(), Mode.fromWire(mode), payment.id()).stream()
                .map(TimelineLine::of).toList());
        return "dashboard/payment";
    }

    /** What the payment has left to refund, by the rule its refunds are held to. */
    private long refundable(Caller caller, PaymentSearch.Row payment) {
        return refunds.refundable(caller, payment.id());
    }

    private java.util.Optional<PaymentSearch.Row> find(SignedInUser user, String mode, String id) {
        if (!id.startsWith("pay_") || id.length() > 68) {
            return java.util.Optional.empty();
        }
        return search.page(user.merchantId(), Mode.fromWire(mode), PaymentFilter.NONE.withId(id), null, 1).rows()
                .stream().findFirst();
    }

    private static String notFound(String mode, String id, HttpServletResponse response, Model model) {
        return CollectPages.notFound("payment", id, "/dashboard/" + mode + "/payments", "All payments", response,
                model);
    }

    /** An amount typed in major units ({@code 10.50}) as minor units, or null when it is not one of the currency's. */
    static Long minorUnits(String text, String currency) {
        if (!text.matches("^[0-9]{1,9}([.][0-9]{1,3})?$")) {
            return null;
        }
        var minor = Currencies.minorUnits(new BigDecimal(text), currency);
        return minor.isPresent() && minor.getAsLong() > 0 ? minor.getAsLong() : null;
    }

    private String amounts(PaymentSearch.Row row) {
        Map<String, Object> amounts = new LinkedHashMap<>();
        amounts.put("status", row.status().wire());
        amounts.put("authorized_amount", row.authorizedAmount());
        amounts.put("paid_amount", row.paidAmount());
        amounts.put("voided_amount", row.voidedAmount());
        amounts.put("refunded_amount", row.refundedAmount());
        return json.writeValueAsString(amounts);
    }

    /** The list's query string for the same filters, on the page at {@code cursor} (null: the first). */
    private static String query(Map<String, String[]> form, String cursor) {
        UriComponentsBuilder uri = UriComponentsBuilder.newInstance();
        for (String field : FIELDS) {
            for (String value : form.getOrDefault(field, new String[0])) {
                if (!value.isBlank()) {
                    uri.queryParam(field, value);
                }
            }
        }
        if (cursor != null) {
            uri.queryParam(CURSOR, cursor);
        }
        return uri.encode().build().toUriString();
    }

    private static String single(Map<String, String[]> form, String name) {
        String[] values = form.get(name);
        return values == null || values.length == 0 || values[0].isBlank() ? null : values[0];
    }

    /** The refusal's messages by form field, the first of each (the page shows one under each field). */
    private Map<String, String> errors(Rejected refused) {
        Map<String, String> byField = new LinkedHashMap<>();
        for (FieldError error : rejections.problem(refused.rejection()).errors()) {
            byField.putIfAbsent(error.field(), error.message());
        }
        return byField;
    }

    /** What the form was sent with, to show it again as it was typed. */
    public record FormValues(Map<String, String[]> form) {

        public String value(String field) {
            String[] values = form.get(field);
            return values == null || values.length == 0 ? "" : values[0];
        }

        public boolean given(String field) {
            return !value(field).isBlank();
        }

        public boolean checked(String field, String value) {
            return Set.of(form.getOrDefault(field, new String[0])).contains(value);
        }
    }

    /** One payment as the list and the payment's page show it. */
    public record ListedPayment(String id, String created, String status, String amount, String method, String customer,
                         String reference, String refunded) {

        static ListedPayment of(PaymentSearch.Row row) {
            String method = row.cardLast4() != null
                    ? (row.cardBrand() == null ? "Card" : capitalised(row.cardBrand())) + " ···· " + row.cardLast4()
                    : row.methodType() == null ? "–" : row.methodType().replace('_', ' ');
            String customer = row.customerEmail() != null ? row.customerEmail()
                    : row.customerId() != null ? row.customerId() : "–";
            return new ListedPayment(row.id(), HomeSummary.moment(row.createdAt()), row.status().wire(),
                    HomeSummary.money(row.currency(), row.amount()), method, customer,
                    row.externalReference() == null ? "–" : row.externalReference(),
                    row.refundedAmount() == 0 ? null : HomeSummary.money(row.currency(), row.refundedAmount()));
        }

        private static String capitalised(String word) {
            return word.isEmpty() ? word
                    : Character.toUpperCase(word.charAt(0)) + word.substring(1).toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One line of a payment's timeline: when, what, its outcome, and for an event where it was delivered. */
    public record TimelineLine(String at, String what, String outcome, List<String> deliveries) {

        static TimelineLine of(PaymentTimeline.Entry entry) {
            String at = HomeSummary.moment(entry.at());
            return switch (entry) {
                case PaymentTimeline.Operation op -> new TimelineLine(at, switch (op.type()) {
                    case "authorize" -> "Payment attempt";
                    case "capture" -> "Capture";
                    case "void" -> "Void";
                    default -> op.type();
                }, op.status() + (op.error() == null ? "" : " · " + (op.error().declineCode() != null ? op.error().declineCode() : op.error().errorCode())), List.of());
                case PaymentTimeline.RefundMade refund -> new TimelineLine(at, "Refund " + refund.refundId(),
                        refund.status() + (refund.failureReason() == null ? "" : " · " + refund.failureReason()),
                        List.of());
                case PaymentTimeline.Event event -> new TimelineLine(at, "Event " + event.type(), event.eventId(),
                        event.deliveries().stream().map(d -> d.url() + ": " + d.status()
                                + (d.lastResponseStatus() == null ? "" : " (HTTP " + d.lastResponseStatus() + ")"))
                                .toList());
            };
        }
    }
}
