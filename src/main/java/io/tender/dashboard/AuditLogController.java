package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.util.UriComponentsBuilder;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit log's page (decisions §11, owners only by {@link DashboardSecurity}'s rule on
 * {@code /dashboard/*\/team/**}): the merchant's entries, newest first, in every mode, filtered by action, by who
 * acted and by date, a page at a time. It only reads: the log is append-only and nothing on the page changes it.
 */
@Hidden
@Controller
record AuditLogController(AuditLogSearch search, Merchants merchants) {

    static final int PAGE_SIZE = 50;
    /** A user agent is cut to this many characters in the table (the whole one is the cell's title). */
    private static final int AGENT_SHOWN = 40;
    private static final List<String> FIELDS = List.of("action", "who", "from", "to");

    @GetMapping("/dashboard/{mode:test|live}/team/audit")
    String audit(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                 HttpServletRequest request, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "team", csrf, merchants);
        Map<String, String[]> form = request.getParameterMap();
        var values = new PaymentsController.FormValues(form);
        model.addAttribute("form", values);
        model.addAttribute("actions", AuditActions.WORDS);
        model.addAttribute("filtered", FIELDS.stream().anyMatch(values::given));
        Map<String, String> errors = new LinkedHashMap<>();
        String action = blankToNull(values.value("action"));
        if (action != null && !AuditActions.WORDS.containsKey(action)) {
            errors.put("action", "Choose one of the actions offered.");
        }
        String who = blankToNull(values.value("who"));
        if (who != null && who.length() > 254) {
            errors.put("who", "Use at most 254 characters.");
        }
        LocalDate from = date(values.value("from"), "from", errors);
        LocalDate to = date(values.value("to"), "to", errors);
        if (from != null && to != null && to.isBefore(from)) {
            errors.put("to", "Choose a day on or after the first day.");
        }
        Long cursor = null;
        if (values.given("before")) {
            try {
                cursor = Long.parseLong(values.value("before"));
            } catch (NumberFormatException e) {
                errors.put("before", "This page link is not one the dashboard made. Start from the first page.");
            }
        }
        model.addAttribute("errors", errors);
        if (!errors.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("rows", List.of());
            model.addAttribute("nextUrl", null);
            model.addAttribute("firstUrl", null);
            return "dashboard/audit";
        }
        var page = search.page(user.merchantId(), new AuditLogSearch.Filter(action, who, from, to), cursor,
                PAGE_SIZE);
        model.addAttribute("rows", page.rows().stream().map(AuditLine::of).toList());
        String base = "/dashboard/" + mode + "/team/audit";
        model.addAttribute("nextUrl", page.next() == null ? null : base + query(form, page.next()));
        model.addAttribute("firstUrl", cursor == null ? null : base + query(form, null));
        return "dashboard/audit";
    }

    private static LocalDate date(String text, String field, Map<String, String> errors) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return LocalDate.parse(text.strip());
        } catch (DateTimeParseException e) {
            errors.put(field, "Enter a date such as 2026-11-28.");
            return null;
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String query(Map<String, String[]> form, Long before) {
        UriComponentsBuilder uri = UriComponentsBuilder.newInstance();
        for (String field : FIELDS) {
            String[] values = form.get(field);
            if (values != null && values.length > 0 && !values[0].isBlank()) {
                uri.queryParam(field, values[0]);
            }
        }
        if (before != null) {
            uri.queryParam("before", before);
        }
        return uri.encode().build().toUriString();
    }

    private static final java.time.format.DateTimeFormatter WHEN =
            java.time.format.DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm:ss 'UTC'", java.util.Locale.ENGLISH);

    /** One entry as the page shows it. */
    public record AuditLine(String at, String actor, String userId, String action, String actionCode, String target,
                            String targetEmail, String mode, String address, String agent, String agentFull,
                            String before, String after) {

        static AuditLine of(AuditLogSearch.Row row) {
            String agent = row.userAgent();
            String shown = agent == null ? null
                    : agent.length() > AGENT_SHOWN ? agent.substring(0, AGENT_SHOWN) + "…" : agent;
            return new AuditLine(WHEN.format(row.at().atOffset(java.time.ZoneOffset.UTC)), row.actor(), row.userId(),
                    AuditActions.words(row.action()), row.action(), row.target(), row.targetEmail(), row.mode(),
                    row.clientAddress(), shown, agent, row.before(), row.after());
        }
    }
}
