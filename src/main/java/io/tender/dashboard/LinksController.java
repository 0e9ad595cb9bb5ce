package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.Currencies;
import io.tender.api.FieldError;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.api.Rejections;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.Outcome;
import io.tender.payment.PaymentFilter;
import io.tender.payment.PaymentSearch;
import io.tender.paymentpage.PaymentPageSearch;
import io.tender.paymentrequest.PaymentLinks;
import io.tender.qr.QrCodes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The Links pages (decisions §11): payment requests (one payment asked of one customer) and payment pages (a page
 * anyone can pay through). A request is made from the dashboard's form through the API's own flow
 * ({@link PaymentLinks}: its validation and words, beside each field; the form's Idempotency-Key, so sent twice it
 * makes one); its page shows the link to copy, its QR code (served here, as the API's {@code …/qr.svg} needs a key),
 * its status and the payments made through it, and cancels it after a confirmation. Creating and cancelling are for
 * owners and developers ({@code DashboardSecurity}) and go into the audit log.
 */
@Hidden
@Controller
record LinksController(PaymentLinks links, PaymentPageSearch pages, PaymentSearch payments, QrCodes qrCodes,
                       Merchants merchants, AuditLog audit, FormActions actions, Rejections rejections,
                       JsonMapper json) {

    // ---- payment requests ---------------------------------------------------------------------------------------

    @GetMapping("/dashboard/{mode:test|live}/links")
    String list(@PathVariable String mode, @RequestParam(name = "status", required = false) String status,
                @RequestParam(name = "cursor", required = false) String cursor,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        var list = CollectPages.StatusList.asked("/dashboard/" + mode + "/links", PaymentLinks.STATUSES, status,
                cursor);
        var page = links.page(user.merchantId(), Mode.fromWire(mode), list.status(), cursor,
                PaymentsController.PAGE_SIZE);
        list.show(model, page.rows().stream().map(ListedLink::of).toList(), page.nextCursor());
        model.addAttribute("canCreate", user.role() != Role.VIEWER);
        return "dashboard/links";
    }

    @GetMapping("/dashboard/{mode:test|live}/links/new")
    String newLink(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                   HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        if (user.role() == Role.VIEWER) {
            // A viewer only reads: the list, where no create button shows.
            return seeOther(response, "/dashboard/" + mode + "/links");
        }
        return form(new LinkForm("", "ZAR", "", "", ""), Map.of(), null, model);
    }

    /**
     * Makes a payment request as {@code POST /collect/payment_requests} would with the form's fields (the amount typed
     * in major units), under the form's Idempotency-Key: the same form sent twice makes one request and both answers
     * go to it. A refused field is shown beside it, as the API words it, with nothing made.
     */
    @PostMapping("/dashboard/{mode:test|live}/links")
    String create(@PathVariable String mode, @RequestParam(name = "amount", defaultValue = "") String amountText,
                  @RequestParam(name = "currency", defaultValue = "") String currencyText,
                  @RequestParam(name = "description", defaultValue = "") String description,
                  @RequestParam(name = "customer_email", defaultValue = "") String email,
                  @RequestParam(name = "customer_phone", defaultValue = "") String phone,
                  @RequestParam(name = "idempotency_key", required = false) String key,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        String currency = currencyText.trim().toUpperCase(Locale.ROOT);
        LinkForm typed = new LinkForm(amountText.trim(), currency, description.trim(), email.trim(), phone.trim());
        if (key == null || !CollectPages.KEY.matcher(key).matches()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return form(typed, Map.of(), "This form has expired. Fill it in again and create the link.", model);
        }
        Map<String, String> errors = new LinkedHashMap<>();
        ObjectNode body = json.createObjectNode();
        if (!typed.amount().isEmpty()) {
            Long minor = Currencies.isActive(currency) ? PaymentsController.minorUnits(typed.amount(), currency) : null;
            if (minor != null) {
                body.put("amount", minor);
            } else if (Currencies.isActive(currency)) {
                errors.put("amount", "Enter an amount such as " + Currencies.major(1050, currency) + " (in "
                        + currency + ").");
            } else {
                errors.put("amount", "Enter the amount again once the currency is right.");
            }
        }
        body.put("currency", currency);
        if (!typed.description().isEmpty()) {
            body.put("description", typed.description());
        }
        if (!typed.email().isEmpty() || !typed.phone().isEmpty()) {
            ObjectNode customer = body.putObject("customer");
            if (!typed.email().isEmpty()) {
                customer.put("email", typed.email());
            }
            if (!typed.phone().isEmpty()) {
                customer.put("phone", typed.phone());
            }
        }
        Outcome<PaymentLinks.Link> made = null;
        try {
            if (errors.isEmpty()) {
                made = links.create(user.merchantId(), Mode.fromWire(mode),
                        actions.keyed(new FormActions.Form(key, null, user, mode, request, response)), body);
            } else {
                // The API's words for the other fields too, so every mistake shows at once; nothing is made.
                links.validate(body);
            }
        } catch (ApiException refused) {
            for (FieldError error : refused.errors()) {
                String field = switch (error.field()) {
                    case "customer.email" -> "customer_email";
                    case "customer.phone", "customer" -> "customer_phone";
                    default -> error.field();
                };
                errors.putIfAbsent(field, error.message());
            }
            if (errors.isEmpty()) {
                response.setStatus(refused.status());
                return form(typed, errors, refused.getMessage(), model);
            }
        }
        if (made == null || !errors.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return form(typed, errors, null, model);
        }
        return switch (made) {
            case Outcome.Done<PaymentLinks.Link>(PaymentLinks.Link link) -> {
                audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(),
                        "payment_request.created", link.id(), mode, null, state(link)), request);
                yield seeOther(response, "/dashboard/" + mode + "/links/" + link.id() + "?done=created");
            }
            case Outcome.Replayed<PaymentLinks.Link> replayed when replayed.done() && replayed.view() != null ->
                    seeOther(response, "/dashboard/" + mode + "/links/" + replayed.view().id() + "?done=created");
            case Outcome.Replayed<PaymentLinks.Link> replayed -> {
                response.setStatus(replayed.done() ? HttpStatus.OK.value() : replayed.status());
                yield form(typed, Map.of(), replayed.detail() != null ? replayed.detail() : FormActions.SENT_BEFORE,
                        model);
            }
            case Outcome.Refused<PaymentLinks.Link>(var rejection) -> {
                ApiException problem = rejections.problem(rejection);
                response.setStatus(problem.status());
                yield form(typed, Map.of(), problem.getMessage(), model);
            }
        };
    }

    private String form(LinkForm form, Map<String, String> errors, String error, Model model) {
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("error", error);
        // A key per form shown: the same form sent twice (a double click, a reload) makes one request.
        model.addAttribute("key", UUID.randomUUID().toString());
        return "dashboard/link-new";
    }

    /** What the form was sent with, shown again as typed. */
    public record LinkForm(String amount, String currency, String description, String email, String phone) {
    }

    private static final Map<String, String> DONE = Map.of("created",
            "Payment link made. Copy it or show its QR code to your customer.", "cancelled",
            "The request is cancelled: its link no longer takes a payment.");

    @GetMapping("/dashboard/{mode:test|live}/links/{id:pr_[a-f0-9]+}")
    String link(@PathVariable String mode, @PathVariable String id,
                @RequestParam(name = "done", required = false) String done,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        var found = links.find(user.merchantId(), Mode.fromWire(mode), id);
        if (found.isEmpty()) {
            return requestNotFound(mode, id, response, model);
        }
        model.addAttribute("notice", done == null ? null : DONE.get(done));
        return linkPage(user, mode, found.get(), null, model);
    }

    private String linkPage(SignedInUser user, String mode, PaymentLinks.Link link, String error, Model model) {
        model.addAttribute("link", link);
        model.addAttribute("error", error);
        model.addAttribute("status", StatusWords.of(link.status()));
        model.addAttribute("amount", HomeSummary.money(link.currency(), link.amount()));
        model.addAttribute("created", HomeSummary.moment(link.createdAt()));
        model.addAttribute("expires", HomeSummary.moment(link.expiresAt()));
        model.addAttribute("open", link.status().equals("active"));
        // The API's rule, asked: not a status compared here (an attempt in flight keeps an active request).
        model.addAttribute("canCancel", user.role() != Role.VIEWER
                && links.cancellable(user.merchantId(), Mode.fromWire(mode), link.id()));
        model.addAttribute("cancelKey", UUID.randomUUID().toString());
        model.addAttribute("payments", payments.page(user.merchantId(), Mode.fromWire(mode),
                PaymentFilter.NONE.withId(link.paymentSessionId()), null, PaymentSearch.MAX_LIMIT).rows().stream()
                .map(PaymentsController.ListedPayment::of).toList());
        return "dashboard/link";
    }

    /** The QR code of the request's link, for the dashboard's page (the API's own route needs an API key). */
    @GetMapping("/dashboard/{mode:test|live}/links/{id:pr_[a-f0-9]+}/qr.svg")
    ResponseEntity<byte[]> linkQr(@PathVariable String mode, @PathVariable String id,
                                  @AuthenticationPrincipal SignedInUser user) {
        return qr(links.find(user.merchantId(), Mode.fromWire(mode), id).map(PaymentLinks.Link::url));
    }

    /** The QR code of a request's or a page's link, as an SVG image; 404 when it is not the merchant's. */
    private ResponseEntity<byte[]> qr(Optional<String> url) {
        return url.map(u -> qrCodes.image(u, "svg", null)).orElseGet(() -> ResponseEntity.notFound().build());
    }

    /**
     * Cancels an active request as {@code DELETE /collect/payment_requests/{id}} does: first a confirmation page,
     * then, confirmed, under the form's Idempotency-Key (sent twice, it cancels once); an audit row with the status
     * before and after; 303 back to the request.
     */
    @PostMapping("/dashboard/{mode:test|live}/links/{id:pr_[a-f0-9]+}/cancel")
    String cancel(@PathVariable String mode, @PathVariable String id,
                  @RequestParam(name = "idempotency_key", required = false) String key,
                  @RequestParam(name = "confirmed", required = false) String confirmed,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = links.find(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return requestNotFound(mode, id, response, model);
        }
        PaymentLinks.Link link = found.get();
        var form = new FormActions.Form(key, confirmed, user, mode, request, response);
        return actions.run(form, new FormActions.StatusChange<PaymentLinks.Link>(form, "payment_request.cancelled", id,
                link.status(), "/dashboard/" + mode + "/links/" + id + "?done=cancelled") {
            @Override
            public String page(String error) {
                return linkPage(user, mode, link, error, model);
            }

            @Override
            public String confirmation() {
                model.addAttribute("link", link);
                model.addAttribute("amount", HomeSummary.money(link.currency(), link.amount()));
                model.addAttribute("key", key);
                return "dashboard/link-cancel";
            }

            @Override
            public Outcome<PaymentLinks.Link> act(KeyedRequest keyed) {
                return links.cancel(user.merchantId(), inMode, id, keyed);
            }

            @Override
            String after(PaymentLinks.Link view) {
                return view.status();
            }
        });
    }

    private static String requestNotFound(String mode, String id, HttpServletResponse response, Model model) {
        return CollectPages.notFound("payment request", id, "/dashboard/" + mode + "/links", "All payment requests",
                response, model);
    }

    /** One request as the list shows it. */
    public record ListedLink(String id, String amount, StatusWords status, String description, String customer,
                             String created, String expires) {

        static ListedLink of(PaymentLinks.Link link) {
            String customer = link.customerEmail() != null ? link.customerEmail()
                    : link.customerPhone() != null ? link.customerPhone()
                    : link.customerName() != null ? link.customerName() : "–";
            return new ListedLink(link.id(), HomeSummary.money(link.currency(), link.amount()),
                    StatusWords.of(link.status()), link.description() == null ? "–" : link.description(), customer,
                    HomeSummary.moment(link.createdAt()), HomeSummary.moment(link.expiresAt()));
        }
    }

    // ---- payment pages ------------------------------------------------------------------------------------------

    @GetMapping("/dashboard/{mode:test|live}/links/pages")
    String pageList(@PathVariable String mode, @RequestParam(name = "status", required = false) String status,
                    @RequestParam(name = "cursor", required = false) String cursor,
                    @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        var list = CollectPages.StatusList.asked("/dashboard/" + mode + "/links/pages", PaymentPageSearch.STATUSES,
                status, cursor);
        var page = pages.pages(user.merchantId(), Mode.fromWire(mode), list.status(), cursor,
                PaymentsController.PAGE_SIZE);
        list.show(model, page.rows().stream().map(ListedPage::of).toList(), page.nextCursor());
        return "dashboard/link-pages";
    }

    @GetMapping("/dashboard/{mode:test|live}/links/pages/{id}")
    String paymentPage(@PathVariable String mode, @PathVariable String id,
                       @RequestParam(name = "cursor", required = false) String cursor,
                       @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                       Model model) {
        Chrome.add(model, user, mode, "links", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = pages.find(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return CollectPages.notFound("payment page", id, "/dashboard/" + mode + "/links/pages",
                    "All payment pages", response, model);
        }
        PaymentPageSearch.Page page = found.get();
        model.addAttribute("pp", ListedPage.of(page));
        var transactions = pages.transactions(user.merchantId(), inMode, page.id(), cursor,
                PaymentsController.PAGE_SIZE);
        model.addAttribute("transactions", transactions.rows().stream().map(ListedTransaction::of).toList());
        String base = "/dashboard/" + mode + "/links/pages/" + page.id();
        model.addAttribute("nextUrl", transactions.nextCursor() == null ? null
                : CollectPages.listUrl(base, null, transactions.nextCursor()));
        model.addAttribute("firstUrl", cursor == null ? null : base);
        return "dashboard/link-page";
    }

    @GetMapping("/dashboard/{mode:test|live}/links/pages/{id}/qr.svg")
    ResponseEntity<byte[]> pageQr(@PathVariable String mode, @PathVariable String id,
                                  @AuthenticationPrincipal SignedInUser user) {
        return qr(pages.find(user.merchantId(), Mode.fromWire(mode), id).map(PaymentPageSearch.Page::url));
    }

    /** One payment page as the list and its page show it. */
    public record ListedPage(String id, String title, StatusWords status, String amount, String url, String created) {

        static ListedPage of(PaymentPageSearch.Page page) {
            String amount = page.amount() != null ? HomeSummary.money(page.currency(), page.amount())
                    : page.min() != null ? HomeSummary.money(page.currency(), page.min()) + " to "
                    + HomeSummary.money(page.currency(), page.max()) + ", the payer chooses"
                    : "The payer chooses";
            return new ListedPage(page.id(), page.title(), StatusWords.of(page.status()), amount, page.url(),
                    HomeSummary.moment(page.createdAt()));
        }
    }

    /** One transaction of a page. */
    public record ListedTransaction(String id, String amount, StatusWords status, String payer, String paymentId,
                                    String created) {

        static ListedTransaction of(PaymentPageSearch.Transaction t) {
            String payer = t.payerEmail() != null ? t.payerEmail() : t.payerName() != null ? t.payerName() : "–";
            return new ListedTransaction(t.id(), HomeSummary.money(t.currency(), t.amount()),
                    StatusWords.of(t.status()), payer, t.paymentId(), HomeSummary.moment(t.createdAt()));
        }
    }

    private String state(PaymentLinks.Link request) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("status", request.status());
        state.put("amount", request.amount());
        state.put("currency", request.currency());
        return json.writeValueAsString(state);
    }

    static String seeOther(HttpServletResponse response, String location) {
        return FormActions.seeOther(response, location);
    }
}
