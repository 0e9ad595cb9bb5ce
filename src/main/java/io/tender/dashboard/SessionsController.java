package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.payment.PaymentFilter;
import io.tender.payment.PaymentSearch;
import io.tender.payment.PaymentSessionView;
import io.tender.payment.SessionSearch;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Payment sessions pages (decisions §11), a tab of Payments: the merchant's sessions in the URL's mode, newest
 * first, a page at a time and of one status if asked ({@link SessionSearch}); and one session with its payments, its
 * series options, its return URL and, while it is open, its checkout link to copy. Read-only: nothing here changes.
 */
@Hidden
@Controller
record SessionsController(SessionSearch sessions, PaymentSearch payments, Merchants merchants, JsonMapper json) {

    @GetMapping("/dashboard/{mode:test|live}/sessions")
    String list(@PathVariable String mode, @RequestParam(name = "status", required = false) String status,
                @RequestParam(name = "cursor", required = false) String cursor,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "payments", csrf, merchants);
        var list = CollectPages.StatusList.asked("/dashboard/" + mode + "/sessions", SessionSearch.STATUSES, status,
                cursor);
        var page = sessions.page(user.merchantId(), Mode.fromWire(mode), list.status(), cursor,
                PaymentsController.PAGE_SIZE);
        list.show(model, page.rows().stream().map(ListedSession::of).toList(), page.nextCursor());
        return "dashboard/sessions";
    }

    @GetMapping("/dashboard/{mode:test|live}/sessions/{id}")
    String session(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                   CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "payments", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = sessions.find(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return CollectPages.notFound("payment session", id, "/dashboard/" + mode + "/sessions",
                    "All payment sessions", response, model);
        }
        PaymentSessionView s = found.get();
        model.addAttribute("ps", s);
        model.addAttribute("sessionType", (s.type() == null ? "one_time" : s.type()).replace('_', ' '));
        model.addAttribute("status", StatusWords.of(s.status()));
        model.addAttribute("outcome", StatusWords.of(s.paymentOutcome()));
        model.addAttribute("amount", HomeSummary.money(s.currency(), s.amount()));
        model.addAttribute("created", HomeSummary.moment(Instant.parse(s.createdAt())));
        model.addAttribute("expires", HomeSummary.moment(Instant.parse(s.expiresAt())));
        String email = sessions.customerEmail(user.merchantId(), inMode, s.customerId());
        model.addAttribute("customer", email != null ? email : s.customerId());
        // The checkout link is worth copying only while the customer can still pay there.
        model.addAttribute("checkoutUrl", "active".equals(s.status()) ? s.sessionUrl() : null);
        JsonNode options = json.valueToTree(s.options());
        model.addAttribute("mandateOptions", lines(options == null ? null : options.get("mandate_options")));
        model.addAttribute("subscriptionOptions", lines(options == null ? null : options.get("subscription_options")));
        model.addAttribute("payments", payments.page(user.merchantId(), inMode, PaymentFilter.NONE.withId(s.id()),
                null, PaymentSearch.MAX_LIMIT).rows().stream().map(PaymentsController.ListedPayment::of).toList());
        return "dashboard/session";
    }

    /** Series options as "name: value" lines, nested objects flattened ({@code period_limit max_count: 2}). */
    static List<String> lines(JsonNode options) {
        List<String> lines = new ArrayList<>();
        if (options != null && options.isObject()) {
            flatten("", options, lines);
        }
        return lines;
    }

    private static void flatten(String prefix, JsonNode node, List<String> lines) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String name = prefix + field.getKey().replace('_', ' ');
            JsonNode value = field.getValue();
            if (value.isObject()) {
                flatten(name + " · ", value, lines);
            } else if (!value.isNull()) {
                lines.add(name + ": " + (value.isString() ? value.stringValue() : value.toString()));
            }
        }
    }

    /** One session as the list shows it. */
    public record ListedSession(String id, String amount, StatusWords status, String customer, String created,
                                String expires) {

        static ListedSession of(SessionSearch.Row row) {
            return new ListedSession(row.id(), HomeSummary.money(row.currency(), row.amount()),
                    StatusWords.of(row.status()),
                    row.customerEmail() != null ? row.customerEmail() : row.customerId() != null ? row.customerId() : "–",
                    HomeSummary.moment(row.createdAt()), HomeSummary.moment(row.expiresAt()));
        }
    }
}
