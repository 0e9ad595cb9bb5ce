package io.tender.paymentpage;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.Currencies;
import io.tender.api.Timestamps;
import io.tender.checkout.CheckoutHeaders;
import io.tender.checkout.CrossSiteForms;
import io.tender.checkout.PageViews;
import io.tender.ratelimit.RateLimits;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.View;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A payment page at its {@code page_url} (decisions §7): server-rendered, no key, no script needed, the checkout's
 * look and protection headers. {@code GET /pages/{id}} shows the form (or that the page is closed);
 * {@code POST /pages/{id}} checks it, records the visit, opens its payment session and sends the payer there (303).
 * A post from another site, with a missing, forged or stale token, or over the client address's visit limit opens
 * nothing; a form with mistakes is shown again with them (422) and stores nothing. Every request, GET or POST, is
 * within the limits of {@link PageViews}: the client address's unknown ids, and the address's requests of this page.
 */
@Hidden
@Controller
record PublicPageController(PaymentPageService service, VisitTokens tokens, RateLimits rateLimits, PageViews views,
                            CrossSiteForms crossSite) {
    @GetMapping(value = "/pages/{id}", produces = MediaType.TEXT_HTML_VALUE)
    String page(@PathVariable String id, Model model, HttpServletRequest request, HttpServletResponse response) {
        return withPage(id, model, request, response, shown -> {
            Instant now = Timestamps.now();
            return shown.page().takesPayments(now) ? form(shown, VisitForm.blank(shown.page()), Map.of(), model, now)
                    : closed(shown, model, response);
        });
    }

    /**
     * Starts a payment. The form's fields are read from the request here, not bound as handler arguments, so that no
     * debug logging of handler arguments shows what a payer typed.
     */
    @PostMapping(value = "/pages/{id}", produces = MediaType.TEXT_HTML_VALUE)
    String visit(@PathVariable String id, Model model, HttpServletRequest request, HttpServletResponse response) {
        return withPage(id, model, request, response, shown -> visit(shown, model, request, response));
    }

    private String visit(PaymentPageService.PublicPage shown, Model model, HttpServletRequest request,
                         HttpServletResponse response) {
        PaymentPage page = shown.page();
        Instant now = Timestamps.now();
        if (!page.takesPayments(now)) {
            return closed(shown, model, response);
        }
        Optional<String> nonce = tokens.nonce(page.id(), request.getParameter("_csrf"), now);
        if (crossSite.from(request) || nonce.isEmpty()) {
            response.setStatus(HttpStatus.FORBIDDEN.value());
            return refused(shown, null, model);
        }
        VisitForm form = VisitForm.read(page, request::getParameter);
        return switch (form.check(page)) {
            case VisitForm.Checked.Invalid invalid -> {
                response.setStatus(HttpStatus.UNPROCESSABLE_CONTENT.value());
                yield form(shown, form, invalid.errors(), model, now);
            }
            case VisitForm.Checked.Valid valid -> {
                try {
                    rateLimits.pageVisit(request, page.id());
                } catch (ApiException e) {
                    response.setStatus(e.status());
                    e.headers().forEach(response::setHeader);
                    yield refused(shown, e.headers().get("Retry-After"), model);
                }
                yield switch (service.visit(page.id(), nonce.get(), valid.amount(), valid.details())) {
                    case PaymentPageService.VisitOutcome.Opened opened -> {
                        request.setAttribute(View.RESPONSE_STATUS_ATTRIBUTE, HttpStatus.SEE_OTHER);
                        yield "redirect:" + opened.sessionUrl();
                    }
                    case PaymentPageService.VisitOutcome.Closed closed -> closed(shown, model, response);
                    case PaymentPageService.VisitOutcome.AmountRefused refused -> {
                        response.setStatus(HttpStatus.UNPROCESSABLE_CONTENT.value());
                        yield form(shown, form, Map.of(VisitForm.AMOUNT, "This amount cannot be paid on this page "
                                + "right now. Choose another amount, or ask " + shown.merchantName() + "."), model, now);
                    }
                };
            }
        };
    }

    /** The view of a page that exists, with the checkout's headers; else not found, or over a limit too many. */
    private String withPage(String id, Model model, HttpServletRequest request, HttpServletResponse response,
                            Function<PaymentPageService.PublicPage, String> page) {
        return views.render(id, this::find, request, response, model, () -> notFound(response), shown -> {
            CheckoutHeaders.strict(response);
            return page.apply(shown);
        });
    }

    private static String notFound(HttpServletResponse response) {
        CheckoutHeaders.strict(response);
        response.setStatus(HttpStatus.NOT_FOUND.value());
        return "paymentpage/not-found";
    }

    private Optional<PaymentPageService.PublicPage> find(String id) {
        return id.startsWith("pp_") ? service.show(id) : Optional.empty();
    }

    private String form(PaymentPageService.PublicPage shown, VisitForm form, Map<String, String> errors, Model model,
                        Instant now) {
        PaymentPage page = shown.page();
        common(shown, model);
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("token", tokens.issue(page.id(), now));
        if (page.amount() != null) {
            model.addAttribute("amount", Currencies.display(page.amount(), page.currency()));
        } else {
            Map<String, String> presets = new LinkedHashMap<>();
            page.amountOptions().presets().forEach(p -> presets.put(Long.toString(p), Currencies.display(p, page.currency())));
            model.addAttribute("presets", presets);
            model.addAttribute("range", "From " + Currencies.display(page.amountOptions().min(), page.currency())
                    + " to " + Currencies.display(page.amountOptions().max(), page.currency()));
        }
        return "paymentpage/form";
    }

    private String closed(PaymentPageService.PublicPage shown, Model model, HttpServletResponse response) {
        // Gone for good: an inactive page stays inactive, and an expired one cannot be given a new expiry.
        response.setStatus(HttpStatus.GONE.value());
        common(shown, model);
        return "paymentpage/closed";
    }

    private String refused(PaymentPageService.PublicPage shown, String retryAfter, Model model) {
        common(shown, model);
        model.addAttribute("retryAfter", retryAfter);
        return "paymentpage/refused";
    }

    private static void common(PaymentPageService.PublicPage shown, Model model) {
        model.addAttribute("page", shown.page());
        model.addAttribute("merchantName", shown.merchantName());
        model.addAttribute("testMode", shown.testMode());
    }
}
