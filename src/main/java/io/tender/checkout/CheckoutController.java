package io.tender.checkout;

import io.tender.checkout.FormTokens.Purpose;
import io.tender.checkout.CheckoutPage.State;
import io.tender.payment.PaymentMethodType;
import io.tender.processor.sandbox.SandboxProcessor;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.View;
import org.springframework.web.util.UriComponentsBuilder;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The hosted checkout's pages (decisions §6). Every page works without JavaScript: forms post, the answer is a
 * redirect to the page for the session's new state (post-redirect-get), and waiting pages refresh themselves.
 * The routes: {@code GET /checkout/{ckt}} shows whatever the session needs next; {@code POST …/pay} starts an
 * attempt; {@code GET|POST …/action} is the sandbox 3-D Secure or bank page; {@code POST …/cancel} gives up;
 * {@code GET …/status} is the state for the page's own polling. Every request of a route is within the limits of
 * {@link PageViews}: the client address's unknown ids, and the address's requests of this checkout.
 */
@Hidden
@Controller
record CheckoutController(Checkout checkout, FormTokens tokens, AttemptLimiter limiter, PageViews views,
                          CrossSiteForms crossSite) {
    @GetMapping(value = "/checkout/{id}", produces = MediaType.TEXT_HTML_VALUE)
    String page(@PathVariable String id, @RequestParam(required = false) String method, Model model,
                HttpServletRequest request, HttpServletResponse response) {
        return withSession(id, request, response, model, session -> {
            if (backToMerchant(session)) {
                return "redirect:" + returnUrlWithOutcome(session);
            }
            return switch (session.state()) {
                case OPEN -> payPage(session, chosen(session, method), Map.of(), PaymentForm.EMPTY, model);
                case ACTION_REQUIRED -> processorPage(session).map(url -> seeOther(url, request))
                        .orElseGet(() -> session.testMode() ? "redirect:/checkout/" + id + "/action"
                                : view(session, "checkout/waiting", model));
                case WAITING -> view(session, "checkout/waiting", model);
                case RETURNED_TO_MERCHANT, SUCCEEDED, FAILED, CANCELLED, EXPIRED -> view(session, "checkout/result", model);
            };
        });
    }

    /**
     * Starts an attempt. The form's fields are read from the request body here, not bound as handler arguments:
     * Spring logs a handler's arguments at TRACE, and those would carry the card number and security code. A post
     * with any of the form's fields in its URL is refused (400) before anything is read: a card number in a URL ends
     * up in logs and histories. The token names the attempts the form was issued after; {@link Checkout#pay} checks
     * that count under the session's lock, so one form starts at most one attempt however often it is posted.
     */
    @PostMapping(value = "/checkout/{id}/pay", produces = MediaType.TEXT_HTML_VALUE)
    String pay(@PathVariable String id, Model model, HttpServletRequest request, HttpServletResponse response) {
        if (formFieldsInQuery(request)) {
            return withSession(id, request, response, model, session -> {
                response.setStatus(HttpStatus.BAD_REQUEST.value());
                return view(session, "checkout/refused", model);
            });
        }
        String token = request.getParameter("_csrf");
        PaymentForm posted = PaymentForm.from(request::getParameter);
        return posted(id, Purpose.PAY, token, model, request, response, session -> {
            Optional<PaymentMethodType> type = PaymentMethodType.fromWire(posted.method())
                    .filter(session.visibleMethods()::contains);
            if (type.isEmpty()) {
                return "redirect:/checkout/" + id;
            }
            Map<String, String> errors = checkout.pay(id, type.get(), posted, session.attempts(),
                    new Checkout.Client(request.getRemoteAddr(), request.getHeader("User-Agent")));
            if (!errors.isEmpty()) {
                response.setStatus(HttpStatus.UNPROCESSABLE_CONTENT.value());
                return payPage(session, type.get(), errors, posted, model);
            }
            return "redirect:/checkout/" + id;
        });
    }

    /** Whether the URL's query names one of the payment form's fields (which belong in the body only). */
    private static boolean formFieldsInQuery(HttpServletRequest request) {
        String query = request.getQueryString();
        if (query == null || query.isEmpty()) {
            return false;
        }
        return UriComponentsBuilder.newInstance().query(query).build().getQueryParams().keySet().stream()
                .map(name -> java.net.URLDecoder.decode(name, java.nio.charset.StandardCharsets.UTF_8))
                .anyMatch(PaymentForm.FIELDS::contains);
    }

    @GetMapping(value = "/checkout/{id}/action", produces = MediaType.TEXT_HTML_VALUE)
    String action(@PathVariable String id, Model model, HttpServletRequest request, HttpServletResponse response) {
        return withSession(id, request, response, model, session -> {
            if (session.state() != State.ACTION_REQUIRED || !session.testMode()) {
                // Live mode has no sandbox page: the customer acts on the processor's.
                return "redirect:/checkout/" + id;
            }
            model.addAttribute("actionToken", tokens.issue(session, Purpose.ACTION));
            String bank = session.action().bank();
            model.addAttribute("bankName", bank == null ? "your bank" : PaymentForm.BANKS.getOrDefault(bank, bank));
            return view(session, "checkout/action", model);
        });
    }

    /**
     * Where the processor's 3-D Secure or bank page sends the customer back (live mode; the {@code return_url} of the
     * authorization). Asks the processor how the attempt ended through the status query, never by sending it again,
     * and shows the result; while the processor still waits for the customer, the waiting page, which reloads this
     * route.
     */
    @GetMapping(value = "/checkout/{id}/return", produces = MediaType.TEXT_HTML_VALUE)
    String returned(@PathVariable String id, Model model, HttpServletRequest request, HttpServletResponse response) {
        return withSession(id, request, response, model, found -> {
            CheckoutPage session = found;
            if (session.state() == State.ACTION_REQUIRED && !session.testMode()) {
                session = checkout.returned(id);
                CheckoutHeaders.forSession(response, session);
            }
            if (backToMerchant(session)) {
                return "redirect:" + returnUrlWithOutcome(session);
            }
            return switch (session.state()) {
                case ACTION_REQUIRED -> session.testMode() ? "redirect:/checkout/" + id + "/action"
                        : view(session, "checkout/waiting", model);
                case WAITING -> view(session, "checkout/waiting", model);
                case OPEN -> "redirect:/checkout/" + id;
                case RETURNED_TO_MERCHANT, SUCCEEDED, FAILED, CANCELLED, EXPIRED -> view(session, "checkout/result", model);
            };
        });
    }

    @PostMapping(value = "/checkout/{id}/action", produces = MediaType.TEXT_HTML_VALUE)
    String decide(@PathVariable String id, @RequestParam(name = "_csrf", required = false) String token,
                  @RequestParam(required = false) String decision, Model model, HttpServletRequest request,
                  HttpServletResponse response) {
        return posted(id, Purpose.ACTION, token, model, request, response, session -> {
            SandboxProcessor.Decision answer = switch (decision == null ? "" : decision) {
                case "approve" -> SandboxProcessor.Decision.APPROVE;
                case "decline" -> SandboxProcessor.Decision.DECLINE;
                case "cancel" -> SandboxProcessor.Decision.CANCEL;
                default -> null;
            };
            if (answer != null && session.state() == State.ACTION_REQUIRED) {
                checkout.decide(id, answer);
            }
            return "redirect:/checkout/" + id;
        });
    }

    @PostMapping(value = "/checkout/{id}/cancel", produces = MediaType.TEXT_HTML_VALUE)
    String cancel(@PathVariable String id, @RequestParam(name = "_csrf", required = false) String token, Model model,
                  HttpServletRequest request, HttpServletResponse response) {
        return posted(id, Purpose.CANCEL, token, model, request, response, session -> {
            if (session.state() == State.OPEN && session.cancellable()) {
                checkout.cancel(id);
            }
            return "redirect:/checkout/" + id;
        });
    }

    /** The session's state for the waiting page's polling and the embedded page; nothing a stranger could use. */
    @GetMapping(value = "/checkout/{id}/status", produces = {MediaType.APPLICATION_JSON_VALUE, "application/problem+json"})
    @ResponseBody
    Map<String, Object> status(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        CheckoutPage session = views.lookUp(id, this::load, request).orElse(null);
        if (session == null) {
            response.setStatus(HttpStatus.NOT_FOUND.value());
            return Map.of("state", "not_found");
        }
        CheckoutHeaders.forSession(response, session);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("state", session.state().name().toLowerCase());
        body.put("outcome", session.outcome());
        body.put("payment_session", session.paymentSessionId());
        return body;
    }

    /**
     * The page for a known session, with the session's headers; for an unknown id, the not-found page; over a limit of
     * {@link PageViews}, the too-many page.
     */
    private String withSession(String id, HttpServletRequest request, HttpServletResponse response, Model model,
                               Function<CheckoutPage, String> page) {
        return views.render(id, this::load, request, response, model, () -> notFound(response), session -> {
            CheckoutHeaders.forSession(response, session);
            return page.apply(session);
        });
    }

    /** A form post: as {@link #withSession}, and what {@link #refuse} answers unless the post is this page's own. */
    private String posted(String id, Purpose purpose, String token, Model model, HttpServletRequest request,
                          HttpServletResponse response, Function<CheckoutPage, String> action) {
        return withSession(id, request, response, model, session -> refuse(session, purpose, token, request, response, model)
                .orElseGet(() -> action.apply(session)));
    }

    /**
     * Refuses a form post that is not this page's own: a post from another site ({@link CrossSiteForms}), a missing
     * or stale CSRF token (the form of an earlier state, such as a second click on Pay), or one over the session's
     * rate limit. The answer, if any, is the view to render.
     */
    private Optional<String> refuse(CheckoutPage session, Purpose purpose, String token, HttpServletRequest request,
                                    HttpServletResponse response, Model model) {
        if (crossSite.from(request) || !tokens.valid(session, purpose, token)) {
            response.setStatus(HttpStatus.FORBIDDEN.value());
            return Optional.of(view(session, "checkout/refused", model));
        }
        OptionalLong wait = limiter.take(session.checkoutSessionId());
        if (wait.isPresent()) {
            response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
            response.setHeader("Retry-After", Long.toString(wait.getAsLong()));
            model.addAttribute("retryAfter", wait.getAsLong());
            return Optional.of(view(session, "checkout/refused", model));
        }
        return Optional.empty();
    }

    private String payPage(CheckoutPage session, PaymentMethodType method, Map<String, String> errors,
                           PaymentForm form, Model model) {
        model.addAttribute("method", method);
        model.addAttribute("errors", errors);
        model.addAttribute("form", form);
        model.addAttribute("banks", PaymentForm.BANKS);
        model.addAttribute("payToken", tokens.issue(session, Purpose.PAY));
        model.addAttribute("cancelToken", tokens.issue(session, Purpose.CANCEL));
        return view(session, "checkout/pay", model);
    }

    private String view(CheckoutPage session, String template, Model model) {
        model.addAttribute("checkout", session);
        model.addAttribute("amount", session.displayAmount());
        model.addAttribute("merchantOrigin", CheckoutHeaders.origin(session.returnUrl()).orElse(null));
        model.addAttribute("returnUrl", session.returnUrl() == null ? null : returnUrlWithOutcome(session));
        return template;
    }

    /** The processor's own 3-D Secure or bank page for a live attempt; the sandbox's pages are ours. */
    private static Optional<String> processorPage(CheckoutPage session) {
        return session.testMode() || session.action() == null ? Optional.empty()
                : Optional.ofNullable(session.action().redirectUrl());
    }

    /** A 303 (See Other) to another site: the browser follows it with a GET, whatever brought it here. */
    private static String seeOther(String url, HttpServletRequest request) {
        request.setAttribute(View.RESPONSE_STATUS_ATTRIBUTE, HttpStatus.SEE_OTHER);
        return "redirect:" + url;
    }

    private static PaymentMethodType chosen(CheckoutPage session, String requested) {
        return PaymentMethodType.fromWire(requested).filter(session.visibleMethods()::contains)
                .or(() -> Optional.ofNullable(session.selectedMethod()).filter(session.visibleMethods()::contains))
                .orElse(session.visibleMethods().getFirst());
    }

    /** Merchant selection in redirect mode: the customer goes back after every attempt, whatever its outcome. */
    private static boolean backToMerchant(CheckoutPage session) {
        return session.merchantSelection() && session.returnUrl() != null && !session.presentationMode().embedded()
                && (session.state() == State.RETURNED_TO_MERCHANT || session.state().finished());
    }

    /** {@code return_url} with {@code payment_session} and {@code outcome} added to its query. */
    static String returnUrlWithOutcome(CheckoutPage session) {
        return UriComponentsBuilder.fromUri(URI.create(session.returnUrl()))
                .queryParam("payment_session", session.paymentSessionId())
                .queryParam("outcome", session.outcome())
                .encode().build().toUriString();
    }

    private Optional<CheckoutPage> load(String id) {
        return checkout.load(id);
    }

    private static String notFound(HttpServletResponse response) {
        CheckoutHeaders.strict(response);
        response.setStatus(HttpStatus.NOT_FOUND.value());
        return "checkout/not-found";
    }
}
