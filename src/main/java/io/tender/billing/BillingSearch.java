package io.tender.billing;

import io.tender.api.Keyset;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * The dashboard's Customers pages (decisions §11): one merchant's customers, accounts and bills in one mode, newest
 * first a page at a time, and what payments were applied to each. Read-only. Every statement is scoped by merchant
 * and mode: another merchant's rows and the other mode's never appear, whatever the search, id or cursor says.
 */
@Service
public record BillingSearch(Customers customers, Accounts accounts, Bills bills, PaymentApplications applications) {

    /** The most rows a page holds. */
    public static final int MAX_LIMIT = 100;
    /** A bill's statuses, in the order a person meets them. */
    public static final List<String> BILL_STATUSES = List.of("unpaid", "paid", "voided");

    /** A customer; {@code currency} and {@code balance} are null until the merchant set them. */
    public record CustomerRow(String id, String externalReference, String name, String email, String phone,
                              String currency, Long balance, String obligationId, Instant createdAt) {
    }

    /** An account of a customer; {@code currency} and {@code balance} are null until set. */
    public record AccountRow(String id, String externalReference, String customerId, String name, String currency,
                             Long balance, String obligationId, Instant createdAt) {
    }

    /** A bill; amounts in minor units of {@code currency}; {@code status} as the API writes it. */
    public record BillRow(String id, String externalReference, String customerId, String accountId, String status,
                          String currency, long amountDue, long amountPaid, LocalDate billDate, LocalDate dueDate,
                          String obligationId, Instant createdAt) {

        /** What is still owed; below zero only after an overpayment the bill's rules allowed. */
        public long amountRemaining() {
            return amountDue - amountPaid;
        }
    }

    /**
     * A payment applied to an obligation: how much, when, and how much of it refunds have taken back since; the
     * account or bill it was for (null for a customer balance).
     */
    public record Applied(String paymentId, String accountId, String billId, long amount, long reversed,
                          String currency, Instant appliedAt) {
    }

    /** A page of rows, and the cursor of the next page (null: this is the last). */
    public record Page<T>(List<T> rows, String nextCursor) {
    }

    /**
     * What the bills list is narrowed to (null: not narrowed): a status of {@link #BILL_STATUSES}, due dates (both
     * ends included), and {@code search}: a {@code bill_} id, a customer's {@code bcus_} or an account's
     * {@code bacc_} id (their bills), or a bill's external reference.
     */
    public record BillFilter(String status, LocalDate dueFrom, LocalDate dueTo, String search) {

        public static final BillFilter NONE = searching(null);

        public BillFilter {
            if (status != null && !BILL_STATUSES.contains(status)) {
                throw new IllegalArgumentException("not a bill status: " + status);
            }
        }

        /** Narrowed by {@code search} alone. */
        public static BillFilter searching(String search) {
            return new BillFilter(null, null, null, search);
        }

        public BillFilter withStatus(String wanted) {
            return new BillFilter(wanted, dueFrom, dueTo, search);
        }
    }

    /**
     * The page of the merchant's customers after {@code after} (null: the first), newest first. {@code search}
     * (null: all) is a {@code bcus_} id, an email (any case), the start of a name (any case) or an external reference.
     */
    public Page<CustomerRow> customers(String merchantId, Mode mode, String search, Keyset after, int limit) {
        Caller caller = caller(merchantId, mode, limit);
        List<Customer> rows = customers.page(caller, search, after, limit + 1);
        return page(rows, limit, BillingSearch::row, c -> new Keyset(c.createdAt(), c.id()));
    }

    /** The merchant's customer with this {@code bcus_} id in {@code mode}. */
    public Optional<CustomerRow> customer(String merchantId, Mode mode, String id) {
        return BillingResource.CUSTOMER.namesId(id)
                ? customers.find(Caller.system(merchantId, mode), id, false).map(BillingSearch::row)
                : Optional.empty();
    }

    /** The customer's accounts, newest first, at most {@code limit}. */
    public List<AccountRow> accountsOf(String merchantId, Mode mode, String customerId, int limit) {
        return accounts.ofCustomer(caller(merchantId, mode, limit), customerId, limit).stream()
                .map(BillingSearch::row).toList();
    }

    /** The merchant's account with this {@code bacc_} id in {@code mode}. */
    public Optional<AccountRow> account(String merchantId, Mode mode, String id) {
        return BillingResource.ACCOUNT.namesId(id)
                ? accounts.find(Caller.system(merchantId, mode), id, false).map(BillingSearch::row)
                : Optional.empty();
    }

    /** The page of the merchant's bills that match {@code filter}, after {@code after} (null: the first). */
    public Page<BillRow> bills(String merchantId, Mode mode, BillFilter filter, Keyset after, int limit) {
        List<Bill> rows = bills.page(caller(merchantId, mode, limit), filter, after, limit + 1);
        return page(rows, limit, BillingSearch::row, b -> new Keyset(b.createdAt(), b.id()));
    }

    /** The merchant's bill with this {@code bill_} id in {@code mode}. */
    public Optional<BillRow> bill(String merchantId, Mode mode, String id) {
        return BillingResource.BILL.namesId(id)
                ? bills.find(Caller.system(merchantId, mode), id, false).map(BillingSearch::row)
                : Optional.empty();
    }

    /**
     * The payments applied to the merchant's obligation (a customer's or an account's balance, or a bill: its
     * {@code obligationId}), oldest first; another merchant's or mode's obligation has none.
     */
    public List<Applied> applied(String merchantId, Mode mode, String obligationId) {
        return applications.ofObligation(Caller.system(merchantId, mode), obligationId);
    }

    /** The names of those of {@code customerIds} that are the merchant's customers in {@code mode}, by id. */
    public java.util.Map<String, String> customerNames(String merchantId, Mode mode,
                                                       java.util.Collection<String> customerIds) {
        return customers.names(Caller.system(merchantId, mode), customerIds);
    }

    private static Caller caller(String merchantId, Mode mode, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT);
        }
        return Caller.system(merchantId, mode);
    }

    private static <R, T> Page<T> page(List<R> rows, int limit, java.util.function.Function<R, T> view,
                                       java.util.function.Function<R, Keyset> position) {
        boolean more = rows.size() > limit;
        List<R> shown = more ? rows.subList(0, limit) : rows;
        return new Page<>(shown.stream().map(view).toList(), more ? position.apply(shown.getLast()).cursor() : null);
    }

    private static CustomerRow row(Customer c) {
        return new CustomerRow(c.id(), c.externalReference(), c.name(), c.email(), c.phone(), c.currency(),
                c.ledger().balance(), c.obligationId(), c.createdAt());
    }

    private static AccountRow row(Account a) {
        return new AccountRow(a.id(), a.externalReference(), a.customerId(), a.name(), a.currency(),
                a.ledger().balance(), a.obligationId(), a.createdAt());
    }

    private static BillRow row(Bill b) {
        return new BillRow(b.id(), b.externalReference(), b.customerId(), b.accountId(), b.status().wire(),
                b.currency(), b.amountDue(), b.amountPaid(), b.billDate(), b.dueDate(), b.obligationId(),
                b.createdAt());
    }
}
