package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.Outcome;
import io.tender.payment.PaymentFilter;
import io.tender.payment.PaymentSearch;
import io.tender.payment.SessionSearch;
import io.tender.subscription.MandateView;
import io.tender.subscription.SeriesPages;
import io.tender.subscription.SeriesService;
import io.tender.subscription.SubscriptionView;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The Subscriptions pages (decisions §11): subscriptions and mandates of the merchant in the URL's mode, each one's
 * page (its terms as the customer agreed to them, its periods with their payments, its coming dates by the code of the
 * API's {@code GET /collect/mandates/{id}/schedule}), and the cancel of either after a confirmation that says what
 * happens, through the module's own flow ({@link SeriesService}, which the API's requests run too) under the form's
 * Idempotency-Key ({@link FormActions}): sent twice, it cancels once and makes one audit row ({@code
 * subscription.cancelled}, {@code mandate.cancelled}, status before and after). Cancelling is for owners and developers
 * ({@code DashboardSecurity}).
 */
@Hidden
@Controller
record SubscriptionsController(SeriesPages series, SeriesService service, FormActions actions, SessionSearch sessions,
                               PaymentSearch payments, Merchants merchants) {

    /** Coming dates a subscription's or mandate's page shows. */
    static final int SCHEDULE_SHOWN = 6;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH);

    // ---- subscriptions ------------------------------------------------------------------------------------------

    @GetMapping("/dashboard/{mode:test|live}/subscriptions")
    String subscriptions(@PathVariable String mode, @RequestParam(name = "status", required = false) String status,
                         @RequestParam(name = "cursor", required = false) String cursor,
                         @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "subscriptions", csrf, merchants);
        list(model, user, mode, "/dashboard/" + mode + "/subscriptions", status, SeriesPages.SUBSCRIPTION_STATUSES,
                cursor, series::subscriptions, SubscriptionView::customerId, ListedSubscription::of);
        return "dashboard/subscriptions";
    }

    @GetMapping("/dashboard/{mode:test|live}/subscriptions/{id:sub_[a-f0-9]+}")
    String subscription(@PathVariable String mode, @PathVariable String id,
                        @RequestParam(name = "done", required = false) String done,
                        @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                        Model model) {
        return withFound(SUBSCRIPTIONS, new Shown(mode, id, user, csrf, response, model), s -> {
            model.addAttribute("notice", "cancelled".equals(done) ? "The subscription is cancelled: nothing more is"
                    + " charged, and its mandate is cancelled too." : null);
            return subscriptionPage(user, mode, s, null, model);
        });
    }

    private String subscriptionPage(SignedInUser user, String mode, SubscriptionView s, String error, Model model) {
        Mode inMode = Mode.fromWire(mode);
        model.addAttribute("error", error);
        model.addAttribute("sub", ListedSubscription.of(s, customer(user, inMode, s.customerId())));
        model.addAttribute("view", s);
        model.addAttribute("terms", series.agreedTerms(user.merchantId(), inMode, s.mandateId(),
                merchantName(user)));
        model.addAttribute("periods", series.periods(s).stream().map(p -> new ListedPeriod(p.number(),
                day(p.chargeDate()), HomeSummary.money(s.currency(), p.amount()), StatusWords.of(p.status()),
                p.attempts(), p.paymentId())).toList());
        model.addAttribute("schedule", schedule(user, inMode, s.mandateId(), s.currency(), s.status()));
        // By its mandate: the first payment was made before the subscription existed, and every charge is under it.
        model.addAttribute("payments", payments(user, inMode, s.mandateId()));
        model.addAttribute("canCancel", user.role() != Role.VIEWER && !ended(s.status()));
        model.addAttribute("cancelKey", UUID.randomUUID().toString());
        return "dashboard/subscription";
    }

    @PostMapping("/dashboard/{mode:test|live}/subscriptions/{id:sub_[a-f0-9]+}/cancel")
    String cancelSubscription(@PathVariable String mode, @PathVariable String id,
                              @RequestParam(name = "idempotency_key", required = false) String key,
                              @RequestParam(name = "confirmed", required = false) String confirmed,
                              @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                              HttpServletResponse response, Model model) {
        Mode inMode = Mode.fromWire(mode);
        return withFound(SUBSCRIPTIONS, new Shown(mode, id, user, csrf, response, model), before -> {
            var form = new FormActions.Form(key, confirmed, user, mode, request, response);
            String back = "/dashboard/" + mode + "/subscriptions/" + id;
            return actions.run(form, new Cancel<SubscriptionView>(form, "subscription", id, before.status(), back,
                    model) {
                @Override
                public String page(String error) {
                    return subscriptionPage(user, mode, before, error, model);
                }

                @Override
                void ask() {
                    ListedSubscription shown = ListedSubscription.of(before,
                            customer(user, inMode, before.customerId()));
                    model.addAttribute("question", "Cancel the subscription of " + shown.amount() + " "
                            + shown.every() + "?");
                    model.addAttribute("consequences", List.of(
                            "Nothing more is charged: no further period, and no retry that was waiting. A charge "
                                    + "already under way finishes.",
                            "Its mandate " + before.mandateId() + " is cancelled too, so the saved card cannot be "
                                    + "charged under it again.",
                            "Payments already made stay as they are; refund them from their pages if you need to.",
                            "A cancelled subscription cannot be resumed: the customer would subscribe again at a "
                                    + "checkout."));
                    model.addAttribute("facts", facts("Customer", shown.customer(), "Next charge",
                            shown.nextCharge()));
                    model.addAttribute("button", "Cancel the subscription");
                }

                @Override
                public Outcome<SubscriptionView> act(KeyedRequest request) {
                    return service.cancelSubscription(form.caller(), request, id).outcome();
                }

                @Override
                String after(SubscriptionView view) {
                    return view.status();
                }
            });
        });
    }

    // ---- mandates -----------------------------------------------------------------------------------------------

    @GetMapping("/dashboard/{mode:test|live}/subscriptions/mandates")
    String mandates(@PathVariable String mode, @RequestParam(name = "status", required = false) String status,
                    @RequestParam(name = "cursor", required = false) String cursor,
                    @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        Chrome.add(model, user, mode, "subscriptions", csrf, merchants);
        list(model, user, mode, "/dashboard/" + mode + "/subscriptions/mandates", status, SeriesPages.MANDATE_STATUSES,
                cursor, series::mandates, MandateView::customerId, ListedMandate::of);
        return "dashboard/mandates";
    }

    @GetMapping("/dashboard/{mode:test|live}/subscriptions/mandates/{id}")
    String mandate(@PathVariable String mode, @PathVariable String id,
                   @RequestParam(name = "done", required = false) String done,
                   @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                   Model model) {
        return withFound(MANDATES, new Shown(mode, id, user, csrf, response, model), m -> {
            model.addAttribute("notice", "cancelled".equals(done)
                    ? "The mandate is cancelled: nothing more is charged under it." : null);
            return mandatePage(user, mode, m, null, model);
        });
    }

    private String mandatePage(SignedInUser user, String mode, MandateView m, String error, Model model) {
        Mode inMode = Mode.fromWire(mode);
        model.addAttribute("error", error);
        model.addAttribute("mandate", ListedMandate.of(m, customer(user, inMode, m.customerId())));
        model.addAttribute("view", m);
        model.addAttribute("terms", series.agreedTerms(user.merchantId(), inMode, m.id(), merchantName(user)));
        model.addAttribute("usage", m.periodUsage() == null ? null : HomeSummary.money(m.currency(),
                m.periodUsage().amount()) + " in " + m.periodUsage().count() + " charge"
                + (m.periodUsage().count() == 1 ? "" : "s") + " from " + day(LocalDate.parse(m.periodUsage()
                .periodStart())) + " to " + day(LocalDate.parse(m.periodUsage().periodEnd())));
        model.addAttribute("schedule", schedule(user, inMode, m.id(), m.currency(), m.status()));
        model.addAttribute("accepted", m.acceptance() == null || m.acceptance().acceptedAt() == null ? "–"
                : HomeSummary.moment(Instant.parse(m.acceptance().acceptedAt())));
        model.addAttribute("payments", payments(user, inMode, m.id()));
        model.addAttribute("canCancel", user.role() != Role.VIEWER && m.status().equals("active"));
        model.addAttribute("cancelKey", UUID.randomUUID().toString());
        return "dashboard/mandate";
    }

    @PostMapping("/dashboard/{mode:test|live}/subscriptions/mandates/{id}/cancel")
    String cancelMandate(@PathVariable String mode, @PathVariable String id,
                         @RequestParam(name = "idempotency_key", required = false) String key,
                         @RequestParam(name = "confirmed", required = false) String confirmed,
                         @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                         HttpServletResponse response, Model model) {
        Mode inMode = Mode.fromWire(mode);
        return withFound(MANDATES, new Shown(mode, id, user, csrf, response, model), before -> {
            var form = new FormActions.Form(key, confirmed, user, mode, request, response);
            String back = "/dashboard/" + mode + "/subscriptions/mandates/" + id;
            return actions.run(form, new Cancel<MandateView>(form, "mandate", id, before.status(), back, model) {
                @Override
                public String page(String error) {
                    return mandatePage(user, mode, before, error, model);
                }

                @Override
                void ask() {
                    ListedMandate shown = ListedMandate.of(before, customer(user, inMode, before.customerId()));
                    model.addAttribute("question", "Cancel the mandate of " + shown.customer() + "?");
                    List<String> consequences = new java.util.ArrayList<>(List.of(
                            "Nothing more can be charged under it: a next_in_series charge of it is refused."));
                    if (before.subscriptionId() != null) {
                        consequences.add("Its subscription " + before.subscriptionId()
                                + " is cancelled too: no further period is charged.");
                    }
                    consequences.add("Payments already made stay as they are; refund them from their pages if you need to.");
                    consequences.add("A cancelled mandate cannot be restored: the customer would agree again at a "
                            + "checkout.");
                    model.addAttribute("consequences", consequences);
                    model.addAttribute("facts", facts("Customer", shown.customer(), "Amount", shown.amount()));
                    model.addAttribute("button", "Cancel the mandate");
                }

                @Override
                public Outcome<MandateView> act(KeyedRequest request) {
                    return service.cancelMandate(form.caller(), request, id).outcome();
                }

                @Override
                String after(MandateView view) {
                    return view.status();
                }
            });
        });
    }

    // ---- shared -------------------------------------------------------------------------------------------------

    /** How the merchant's subscriptions or mandates are found by id, in one mode. */
    @FunctionalInterface
    private interface Finder<V> {
        Optional<V> find(SeriesPages pages, String merchantId, Mode mode, String id);
    }

    /** A series' kind as its pages name it: what it is, where its list is, and how one is found. */
    private record Kind<V>(String noun, String listPath, String listName, Finder<V> finder) {
    }

    private static final Kind<SubscriptionView> SUBSCRIPTIONS = new Kind<>("subscription", "/subscriptions",
            "All subscriptions", SeriesPages::subscription);
    private static final Kind<MandateView> MANDATES = new Kind<>("mandate", "/subscriptions/mandates",
            "All mandates", SeriesPages::mandate);

    /** A request for one subscription's or mandate's page, and what it answers with. */
    private record Shown(String mode, String id, SignedInUser user, CsrfToken csrf, HttpServletResponse response,
                         Model model) {
    }

    /** The page {@code page} makes of the one {@code kind} the request names, if it is the merchant's; else 404. */
    private <V> String withFound(Kind<V> kind, Shown shown, Function<V, String> page) {
        Chrome.add(shown.model(), shown.user(), shown.mode(), "subscriptions", shown.csrf(), merchants);
        Optional<V> found = kind.finder().find(series, shown.user().merchantId(), Mode.fromWire(shown.mode()),
                shown.id());
        if (found.isEmpty()) {
            return CollectPages.notFound(kind.noun(), shown.id(), "/dashboard/" + shown.mode() + kind.listPath(),
                    kind.listName(), shown.response(), shown.model());
        }
        return page.apply(found.get());
    }

    /**
     * The cancel of a subscription or a mandate ({@code kind}) from its page: the confirmation page says what follows
     * ({@link #ask} adds its question, consequences, facts and button); done, one audit row with the status before and
     * after, and 303 back to the page, which says it is cancelled.
     */
    private abstract static class Cancel<V> extends FormActions.StatusChange<V> {
        private final String kind;
        private final String id;
        private final String back;
        final Model model;

        Cancel(FormActions.Form form, String kind, String id, String before, String back, Model model) {
            super(form, kind + ".cancelled", id, before, back + "?done=cancelled");
            this.kind = kind;
            this.id = id;
            this.back = back;
            this.model = model;
        }

        /** What the confirmation asks and says, besides the form itself. */
        abstract void ask();

        @Override
        public String confirmation() {
            ask();
            model.addAttribute("kind", kind);
            model.addAttribute("id", id);
            model.addAttribute("action", back + "/cancel");
            model.addAttribute("back", back);
            model.addAttribute("key", form.key());
            return "dashboard/series-cancel";
        }
    }

    /** How a list of subscriptions or mandates is read: the merchant's page of it in one mode and status. */
    @FunctionalInterface
    private interface PageOf<V> {
        SeriesPages.Page<V> read(String merchantId, Mode mode, String status, String cursor, int limit);
    }

    /**
     * A list page of subscriptions or mandates at {@code base}: its status filter (one not in {@code statuses}
     * shows all), a keyset page, and each row with its customer's email (or id, when it has none).
     */
    private <V, R> void list(Model model, SignedInUser user, String wireMode, String base, String status,
                             List<String> statuses, String cursor, PageOf<V> pages, Function<V, String> customerOf,
                             BiFunction<V, String, R> row) {
        Mode mode = Mode.fromWire(wireMode);
        var list = CollectPages.StatusList.asked(base, statuses, status, cursor);
        var page = pages.read(user.merchantId(), mode, list.status(), cursor, PaymentsController.PAGE_SIZE);
        Map<String, String> emails = sessions.customerEmails(user.merchantId(), mode,
                page.rows().stream().map(customerOf).toList());
        list.show(model, page.rows().stream().map(v -> {
            String customer = customerOf.apply(v);
            return row.apply(v, emails.getOrDefault(customer, customer));
        }).toList(), page.nextCursor());
    }

    private List<ListedDate> schedule(SignedInUser user, Mode mode, String mandateId, String currency,
                                      String status) {
        if (!status.equals("active") && !status.equals("past_due") && !status.equals("unpaid")) {
            return List.of();
        }
        return series.schedule(user.merchantId(), mode, mandateId, SCHEDULE_SHOWN).stream()
                .map(u -> new ListedDate(day(u.date()), u.amount() == null ? "Varies"
                        : HomeSummary.money(currency, u.amount()), u.allowed())).toList();
    }

    private List<PaymentsController.ListedPayment> payments(SignedInUser user, Mode mode, String seriesId) {
        return payments.page(user.merchantId(), mode, PaymentFilter.NONE.withId(seriesId), null,
                PaymentSearch.MAX_LIMIT).rows().stream().map(PaymentsController.ListedPayment::of).toList();
    }

    private String customer(SignedInUser user, Mode mode, String customerId) {
        String email = sessions.customerEmail(user.merchantId(), mode, customerId);
        return email != null ? email : customerId;
    }

    private String merchantName(SignedInUser user) {
        return merchants.byId(user.merchantId()).map(Merchants.Merchant::name).orElse(user.merchantId());
    }

    private static Map<String, String> facts(String... namesAndValues) {
        Map<String, String> facts = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            facts.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return facts;
    }

    private static boolean ended(String status) {
        return status.equals("cancelled") || status.equals("completed");
    }

    static String day(LocalDate date) {
        return date == null ? "–" : DAY.format(date);
    }

    /** A subscription as its list and page show it: "ZAR 99.00" "every month". */
    public record ListedSubscription(String id, StatusWords status, String amount, String every, String customer,
                                     String nextCharge, String created, String mandateId, String currentPeriod,
                                     String cancelled) {

        static ListedSubscription of(SubscriptionView s, String customer) {
            Map<String, Object> o = s.options();
            long amount = o.get("amount") instanceof Number n ? n.longValue() : 0;
            int count = o.get("interval_count") instanceof Number n ? n.intValue() : 1;
            String unit = switch (String.valueOf(o.get("interval"))) {
                case "daily" -> "day";
                case "weekly" -> "week";
                default -> "month";
            };
            String every = count == 1 ? "every " + unit : "every " + count + " " + unit + "s";
            // The charge's day in the subscription's zone, as its coming dates are shown (not an instant in UTC).
            java.time.ZoneId zone = o.get("time_zone") instanceof String z ? java.time.ZoneId.of(z)
                    : java.time.ZoneOffset.UTC;
            String next = s.nextChargeAt() == null || ended(s.status()) ? "None"
                    : day(Instant.parse(s.nextChargeAt()).atZone(zone).toLocalDate());
            String period = ended(s.status()) || s.currentPeriod() == null || s.currentPeriod().start() == null
                    || s.currentPeriod().end() == null ? "–"
                    : day(LocalDate.parse(s.currentPeriod().start())) + " to "
                    + day(LocalDate.parse(s.currentPeriod().end()));
            return new ListedSubscription(s.id(), StatusWords.of(s.status()), HomeSummary.money(s.currency(), amount),
                    every, customer == null ? "–" : customer, next, HomeSummary.moment(Instant.parse(s.createdAt())),
                    s.mandateId(), period,
                    s.cancelledAt() == null ? null : HomeSummary.moment(Instant.parse(s.cancelledAt())));
        }
    }

    /** A mandate as its list and page show it. */
    public record ListedMandate(String id, StatusWords status, String type, String amount, String customer,
                                String nextExecution, String created, String subscriptionId, String cancelled,
                                int paymentsCount) {

        @SuppressWarnings("unchecked")
        static ListedMandate of(MandateView m, String customer) {
            Object given = m.options().get("amount");
            String amount = "–";
            if (given instanceof Map<?, ?> a) {
                Map<String, Object> wire = (Map<String, Object>) a;
                amount = "fixed".equals(wire.get("type")) && wire.get("value") instanceof Number v
                        ? HomeSummary.money(m.currency(), v.longValue())
                        : wire.get("min") instanceof Number min && wire.get("max") instanceof Number max
                        ? HomeSummary.money(m.currency(), min.longValue()) + " to "
                        + HomeSummary.money(m.currency(), max.longValue()) : "–";
            }
            return new ListedMandate(m.id(), StatusWords.of(m.status()), m.type().replace('_', ' '), amount,
                    customer == null ? "–" : customer,
                    m.nextExecutionDate() == null ? "None" : day(LocalDate.parse(m.nextExecutionDate())),
                    HomeSummary.moment(Instant.parse(m.createdAt())), m.subscriptionId(),
                    m.cancelledAt() == null ? null : HomeSummary.moment(Instant.parse(m.cancelledAt())),
                    m.paymentsCount());
        }
    }

    /** One period of a subscription. */
    public record ListedPeriod(int number, String date, String amount, StatusWords status, int attempts,
                               String paymentId) {
    }

    /** One coming date: what it would take and whether the period limit allows it. */
    public record ListedDate(String date, String amount, boolean allowed) {
    }
}
