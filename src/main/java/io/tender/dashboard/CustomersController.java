package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.Keyset;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.billing.BillingSearch;
import io.tender.billing.BillingSearch.AccountRow;
import io.tender.billing.BillingSearch.Applied;
import io.tender.billing.BillingSearch.BillFilter;
import io.tender.billing.BillingSearch.BillRow;
import io.tender.billing.BillingSearch.CustomerRow;
import io.tender.payment.PaymentFilter;
import io.tender.payment.PaymentSearch;
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
import java.util.Objects;

/**
 * The Customers pages (decisions §11): the merchant's billing customers in the URL's mode, searched and paged in SQL
 * ({@link BillingSearch}); a customer with their accounts, bills and payments; an account with its bills and the
 * payments applied to its balance; the bills, filtered; and a bill with the payments applied to it. Read-only: money
 * moves through the API. The merchant is the signed-in user's; another merchant's id, or the other mode's, is a
 * not-found page.
 */
@Hidden
@Controller
record CustomersController(BillingSearch billing, PaymentSearch payments, Merchants merchants) {

    /** Rows on one page of a list, and the most bills or accounts a customer's page shows before linking on. */
    static final int PAGE_SIZE = 25;
    private static final String CURSOR = "cursor";
    private static final List<String> BILL_FIELDS = List.of("q", "status", "due_from", "due_to");

    @GetMapping("/dashboard/{mode:test|live}/customers")
    String customers(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                     HttpServletRequest request, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "customers", csrf, merchants);
        Map<String, String[]> form = request.getParameterMap();
        Map<String, String> errors = new LinkedHashMap<>();
        String search = search(form, errors);
        Keyset after = cursor(form, "bcus_", errors);
        model.addAttribute("form", new PaymentsController.FormValues(form));
        model.addAttribute("errors", errors);
        model.addAttribute("filtered", search != null);
        if (!errors.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("rows", List.of());
            return "dashboard/customers";
        }
        var page = billing.customers(user.merchantId(), Mode.fromWire(mode), search, after, PAGE_SIZE);
        model.addAttribute("rows", page.rows().stream().map(ListedCustomer::of).toList());
        String list = "/dashboard/" + mode + "/customers";
        model.addAttribute("nextUrl", page.nextCursor() == null ? null
                : list + query(form, List.of("q"), page.nextCursor()));
        model.addAttribute("firstUrl", after == null ? null : list + query(form, List.of("q"), null));
        return "dashboard/customers";
    }

    @GetMapping("/dashboard/{mode:test|live}/customers/{id}")
    String customer(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                    CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "customers", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = billing.customer(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return notFound("customer", mode, id, response, model);
        }
        CustomerRow customer = found.get();
        model.addAttribute("customer", ListedCustomer.of(customer));
        List<AccountRow> accounts = billing.accountsOf(user.merchantId(), inMode, id, BillingSearch.MAX_LIMIT);
        Map<String, String> accountNames = new LinkedHashMap<>();
        accounts.forEach(a -> accountNames.put(a.id(), a.name()));
        model.addAttribute("accounts", accounts.stream().map(ListedAccount::of).toList());
        model.addAttribute("moreAccounts", accounts.size() == BillingSearch.MAX_LIMIT);
        var bills = billing.bills(user.merchantId(), inMode, BillFilter.searching(id), null, PAGE_SIZE);
        model.addAttribute("bills", bills.rows().stream()
                .map(b -> ListedBill.of(b, customer.name(), accountNames.get(b.accountId()))).toList());
        model.addAttribute("moreBills", bills.nextCursor() != null);
        model.addAttribute("billsUrl", "/dashboard/" + mode + "/customers/bills?q=" + id);
        var paid = payments.page(user.merchantId(), inMode, PaymentFilter.NONE.withId(id), null, PAGE_SIZE);
        model.addAttribute("payments", paid.rows().stream().map(PaymentsController.ListedPayment::of).toList());
        model.addAttribute("morePayments", paid.nextCursor() != null);
        model.addAttribute("paymentsUrl", "/dashboard/" + mode + "/payments?id=" + id);
        model.addAttribute("applied", applied(billing.applied(user.merchantId(), inMode, customer.obligationId())));
        return "dashboard/customer";
    }

    @GetMapping("/dashboard/{mode:test|live}/customers/accounts/{id}")
    String account(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                   CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "customers", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = billing.account(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return notFound("account", mode, id, response, model);
        }
        AccountRow account = found.get();
        String customerName = billing.customerNames(user.merchantId(), inMode, List.of(account.customerId()))
                .getOrDefault(account.customerId(), account.customerId());
        model.addAttribute("account", ListedAccount.of(account));
        model.addAttribute("customerName", customerName);
        var bills = billing.bills(user.merchantId(), inMode, BillFilter.searching(id), null, PAGE_SIZE);
        model.addAttribute("bills", bills.rows().stream()
                .map(b -> ListedBill.of(b, customerName, account.name())).toList());
        model.addAttribute("moreBills", bills.nextCursor() != null);
        model.addAttribute("billsUrl", "/dashboard/" + mode + "/customers/bills?q=" + id);
        model.addAttribute("applied", applied(billing.applied(user.merchantId(), inMode, account.obligationId())));
        return "dashboard/billing-account";
    }

    @GetMapping("/dashboard/{mode:test|live}/customers/bills")
    String bills(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                 HttpServletRequest request, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "customers", csrf, merchants);
        Map<String, String[]> form = request.getParameterMap();
        Map<String, String> errors = new LinkedHashMap<>();
        String search = search(form, errors);
        String status = single(form, "status");
        if (status != null && !BillingSearch.BILL_STATUSES.contains(status)) {
            errors.put("status", "must be one of " + String.join(", ", BillingSearch.BILL_STATUSES));
            status = null;
        }
        LocalDate dueFrom = date(form, "due_from", errors);
        LocalDate dueTo = date(form, "due_to", errors);
        if (dueFrom != null && dueTo != null && dueTo.isBefore(dueFrom)) {
            errors.put("due_to", "must not be before the first due date");
        }
        Keyset after = cursor(form, "bill_", errors);
        model.addAttribute("form", new PaymentsController.FormValues(form));
        model.addAttribute("errors", errors);
        model.addAttribute("statuses", BillingSearch.BILL_STATUSES.stream().map(s -> new Choice(s, BillWords.of(s)))
                .toList());
        model.addAttribute("filtered", BILL_FIELDS.stream().anyMatch(f -> single(form, f) != null));
        if (!errors.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("rows", List.of());
            return "dashboard/bills";
        }
        Mode inMode = Mode.fromWire(mode);
        var page = billing.bills(user.merchantId(), inMode, new BillFilter(status, dueFrom, dueTo, search), after,
                PAGE_SIZE);
        Map<String, String> names = billing.customerNames(user.merchantId(), inMode,
                page.rows().stream().map(BillRow::customerId).distinct().toList());
        model.addAttribute("rows", page.rows().stream()
                .map(b -> ListedBill.of(b, names.get(b.customerId()), null)).toList());
        String list = "/dashboard/" + mode + "/customers/bills";
        model.addAttribute("nextUrl", page.nextCursor() == null ? null
                : list + query(form, BILL_FIELDS, page.nextCursor()));
        model.addAttribute("firstUrl", after == null ? null : list + query(form, BILL_FIELDS, null));
        return "dashboard/bills";
    }

    @GetMapping("/dashboard/{mode:test|live}/customers/bills/{id}")
    String bill(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "customers", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = billing.bill(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return notFound("bill", mode, id, response, model);
        }
        BillRow bill = found.get();
        String customerName = billing.customerNames(user.merchantId(), inMode, List.of(bill.customerId()))
                .getOrDefault(bill.customerId(), bill.customerId());
        String accountName = bill.accountId() == null ? null : billing.account(user.merchantId(), inMode,
                bill.accountId()).map(AccountRow::name).orElse(bill.accountId());
        model.addAttribute("bill", ListedBill.of(bill, customerName, accountName));
        model.addAttribute("applied", applied(billing.applied(user.merchantId(), inMode, bill.obligationId())));
        return "dashboard/bill";
    }

    private static String notFound(String noun, String mode, String id, HttpServletResponse response, Model model) {
        boolean bill = noun.equals("bill");
        return CollectPages.notFound(noun, id, "/dashboard/" + mode + (bill ? "/customers/bills" : "/customers"),
                bill ? "All bills" : "All customers", response, model);
    }

    private static List<ListedApplied> applied(List<Applied> applied) {
        return applied.stream().map(ListedApplied::of).toList();
    }

    /** The search box, trimmed (null: not given); at most 255 characters, as ids and references are. */
    private static String search(Map<String, String[]> form, Map<String, String> errors) {
        String search = single(form, "q");
        if (search != null && search.length() > 255) {
            errors.put("q", "must be at most 255 characters");
            return null;
        }
        return search;
    }

    private static LocalDate date(Map<String, String[]> form, String field, Map<String, String> errors) {
        String text = single(form, field);
        if (text == null) {
            return null;
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            errors.put(field, "must be a date such as 2026-05-20");
            return null;
        }
    }

    /** The page's position (null: the first page); a value this list did not give is refused. */
    static Keyset cursor(Map<String, String[]> form, String idPrefix, Map<String, String> errors) {
        String cursor = single(form, CURSOR);
        if (cursor == null) {
            return null;
        }
        var position = Keyset.read(cursor, idPrefix);
        if (position.isEmpty()) {
            errors.put(CURSOR, "This page link is not one of this list. Start again from the first page.");
        }
        return position.orElse(null);
    }

    /** The list's query string for the same fields, on the page at {@code cursor} (null: the first). */
    static String query(Map<String, String[]> form, List<String> fields, String cursor) {
        UriComponentsBuilder uri = UriComponentsBuilder.newInstance();
        for (String field : fields) {
            String value = single(form, field);
            if (value != null) {
                uri.queryParam(field, value);
            }
        }
        if (cursor != null) {
            uri.queryParam(CURSOR, cursor);
        }
        return uri.encode().build().toUriString();
    }

    /** The field's first value, trimmed; null when blank or not given. */
    static String single(Map<String, String[]> form, String name) {
        String[] values = form.get(name);
        return values == null || values.length == 0 || values[0].isBlank() ? null : values[0].trim();
    }

    /** An option of a select: its value and its words. */
    public record Choice(String value, String words) {
    }

    /** A bill's status in words. */
    static final class BillWords {
        private BillWords() {
        }

        static String of(String status) {
            return switch (status) {
                case "unpaid" -> "Unpaid";
                case "paid" -> "Paid";
                case "voided" -> "Voided";
                default -> status;
            };
        }

        static StatusWords status(String status) {
            return new StatusWords(status, of(status), switch (status) {
                case "paid" -> "succeeded";
                case "unpaid" -> "pending";
                default -> "ended";
            });
        }
    }

    /** A customer as the pages show them. */
    public record ListedCustomer(String id, String name, String email, String phone, String reference,
                                 String balance, String created) {
        static ListedCustomer of(CustomerRow c) {
            return new ListedCustomer(c.id(), c.name(), c.email(), c.phone() == null ? "–" : c.phone(),
                    c.externalReference(), balanceWords(c.currency(), c.balance()), HomeSummary.moment(c.createdAt()));
        }
    }

    /** An account as the pages show it. */
    public record ListedAccount(String id, String customerId, String name, String reference, String balance,
                                String created) {
        static ListedAccount of(AccountRow a) {
            return new ListedAccount(a.id(), a.customerId(), a.name(), a.externalReference(),
                    balanceWords(a.currency(), a.balance()), HomeSummary.moment(a.createdAt()));
        }
    }

    /** A bill as the pages show it; amounts in major units with their currency. */
    public record ListedBill(String id, String reference, String customerId, String customerName, String accountId,
                             String accountName, StatusWords status, String amountDue, String amountPaid,
                             String outstanding, String billDate, String dueDate, boolean overdue, String created) {
        static ListedBill of(BillRow b, String customerName, String accountName) {
            return new ListedBill(b.id(), b.externalReference(), b.customerId(),
                    Objects.requireNonNullElse(customerName, b.customerId()), b.accountId(), accountName,
                    BillWords.status(b.status()), HomeSummary.money(b.currency(), b.amountDue()),
                    HomeSummary.money(b.currency(), b.amountPaid()),
                    HomeSummary.money(b.currency(), b.amountRemaining()), day(b.billDate()), day(b.dueDate()),
                    b.status().equals("unpaid") && b.dueDate().isBefore(LocalDate.now(java.time.ZoneOffset.UTC)),
                    HomeSummary.moment(b.createdAt()));
        }
    }

    /** A payment applied to a balance or a bill, and what refunds took back of it. */
    public record ListedApplied(String paymentId, String amount, String reversed, String at) {
        static ListedApplied of(Applied a) {
            return new ListedApplied(a.paymentId(), HomeSummary.money(a.currency(), a.amount()),
                    a.reversed() == 0 ? null : HomeSummary.money(a.currency(), a.reversed()),
                    HomeSummary.moment(a.appliedAt()));
        }
    }

    /** A balance as people read it: positive is owed by the customer, negative is their credit. */
    static String balanceWords(String currency, Long balance) {
        if (balance == null) {
            return currency == null ? "Not set" : HomeSummary.money(currency, 0);
        }
        return balance < 0 ? HomeSummary.money(currency, -balance) + " in credit"
                : HomeSummary.money(currency, balance) + (balance > 0 ? " owed" : "");
    }

    private static final java.time.format.DateTimeFormatter DAY =
            java.time.format.DateTimeFormatter.ofPattern("d MMM yyyy", java.util.Locale.ENGLISH);

    static String day(LocalDate date) {
        return date == null ? "–" : DAY.format(date);
    }
}
