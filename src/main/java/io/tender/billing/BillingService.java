package io.tender.billing;

import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;

/**
 * Customers, accounts and bills: creation (nested creation included), reads, corrections and voiding. Each write is
 * one transaction (joined with the Idempotency-Key's), so a nested create leaves all its objects or none, and each
 * change locks the row it changes, so it serializes with payments applied to the same obligation.
 */
@Service
record BillingService(Customers customers, Accounts accounts, Bills bills, TransactionTemplate tx) {

    // Customers

    CustomerView createCustomer(Caller caller, NewCustomer request) {
        return tx.execute(status -> CustomerView.of(create(caller, request)));
    }

    CustomerView getCustomer(Caller caller, String reference) {
        return CustomerView.of(customer(caller, reference));
    }

    CustomerView patchCustomer(Caller caller, String reference, CustomerPatch patch) {
        return tx.execute(status -> CustomerView.of(
                customers.change(caller, reference, c -> c.patched(patch, Timestamps.now()))));
    }

    ListPage<CustomerView> listCustomers(Caller caller, ListQuery query, String externalReference) {
        return ListPage.of(customers.list(caller, query, externalReference), query.limit(), Customer::id,
                CustomerView::of);
    }

    // Accounts

    AccountView createAccount(Caller caller, NewAccount request) {
        return tx.execute(status -> AccountView.of(create(caller, request)));
    }

    AccountView getAccount(Caller caller, String reference) {
        return AccountView.of(accounts.find(caller, reference, false).orElseThrow(BillingResource.ACCOUNT::notFound));
    }

    AccountView patchAccount(Caller caller, String reference, AccountPatch patch) {
        return tx.execute(status -> AccountView.of(
                accounts.change(caller, reference, a -> a.patched(patch, Timestamps.now()))));
    }

    ListPage<AccountView> listAccounts(Caller caller, ListQuery query, String customer, String externalReference) {
        return ListPage.of(accounts.list(caller, query, customerIdOf(caller, customer), externalReference),
                query.limit(), Account::id, AccountView::of);
    }

    // Bills

    /** Creates the customer and account first when the request nests them; a failure at any step undoes all. */
    BillView createBill(Caller caller, NewBill request) {
        return tx.execute(status -> {
            Account account = request.account() == null ? null : resolve(caller, request.account());
            String customerId = account == null ? null : account.customerId();
            if (request.customer() != null) {
                Customer customer = customer(caller, request.customer());
                if (account != null && !account.customerId().equals(customer.id())) {
                    throw new BillingRejection.NotCustomerOfAccount().thrown();
                }
                customerId = customer.id();
            }
            Instant now = Timestamps.now();
            Bill bill = new Bill(BillingResource.BILL.newId(), request.externalReference(),
                    Ids.newId(Obligation.PREFIX), customerId, account == null ? null : account.id(), BillStatus.UNPAID,
                    request.currency(), request.amountDue(), 0, request.billDate(), request.dueDate(),
                    request.paymentRules(), request.metadata(), now, now);
            if (!bills.insert(caller, bill)) {
                throw BillingResource.BILL.duplicateReference();
            }
            return BillView.of(bill);
        });
    }

    BillView getBill(Caller caller, String reference) {
        return BillView.of(bills.find(caller, reference, false).orElseThrow(BillingResource.BILL::notFound));
    }

    BillView patchBill(Caller caller, String reference, BillPatch patch) {
        return tx.execute(status -> BillView.of(
                bills.change(caller, reference, b -> b.corrected(patch, Timestamps.now()))));
    }

    BillView voidBill(Caller caller, String reference) {
        return tx.execute(status -> BillView.of(bills.change(caller, reference, b -> b.voided(Timestamps.now()))));
    }

    ListPage<BillView> listBills(Caller caller, ListQuery query, String customer, String account, String status,
                                 String externalReference) {
        String accountId = account == null || BillingResource.ACCOUNT.namesId(account) ? account
                : accounts.find(caller, account, false).map(Account::id).orElse(account);
        return ListPage.of(bills.list(caller, query, customerIdOf(caller, customer), accountId, status,
                externalReference), query.limit(), Bill::id, BillView::of);
    }

    // Creation of the nested parts

    private Customer create(Caller caller, NewCustomer r) {
        Instant now = Timestamps.now();
        Customer customer = new Customer(BillingResource.CUSTOMER.newId(), r.externalReference(), r.name(), r.email(),
                r.phone(), RunningBalance.open(r.opening()), r.metadata(), now, now);
        if (!customers.insert(caller, customer)) {
            throw BillingResource.CUSTOMER.duplicateReference();
        }
        return customer;
    }

    private Account create(Caller caller, NewAccount r) {
        Customer customer = switch (r.customer()) {
            case CustomerInput.Existing existing -> customer(caller, existing.reference());
            case NewCustomer created -> create(caller, created);
        };
        Instant now = Timestamps.now();
        Account account = new Account(BillingResource.ACCOUNT.newId(), r.externalReference(), customer.id(), r.name(),
                RunningBalance.open(r.opening()), r.metadata(), now, now);
        if (!accounts.insert(caller, account)) {
            throw BillingResource.ACCOUNT.duplicateReference();
        }
        return account;
    }

    private Account resolve(Caller caller, AccountInput input) {
        return switch (input) {
            case AccountInput.Existing existing -> accounts.find(caller, existing.reference(), false)
                    .orElseThrow(BillingResource.ACCOUNT::notFound);
            case NewAccount created -> create(caller, created);
        };
    }

    private Customer customer(Caller caller, String reference) {
        return customers.find(caller, reference, false).orElseThrow(BillingResource.CUSTOMER::notFound);
    }

    /**
     * The customer id a list filter names by id or external_reference. A reference that names no customer is kept as
     * it is: it equals no id (ids have the prefix references may not have), so the page is empty.
     */
    private String customerIdOf(Caller caller, String customer) {
        return customer == null || BillingResource.CUSTOMER.namesId(customer) ? customer
                : customers.find(caller, customer, false).map(Customer::id).orElse(customer);
    }
}
