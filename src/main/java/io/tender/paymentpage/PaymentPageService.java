package io.tender.paymentpage;

import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Rejected;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.payment.CollectSessions;
import io.tender.payment.PaymentObligations;
import io.tender.payment.PublicBase;
import io.tender.payment.SessionOrigin;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Payment pages (decisions §7): the merchant's API (create, read, change, stop, delete, the transactions) and the
 * public side, where each visit that passes the page's form opens a payment session of its own. Each method is one
 * transaction; the visit's session is opened in the transaction that records the visit, so there is never one
 * without the other.
 */
@Service
record PaymentPageService(PaymentPages pages, PageVisits visits, PageTransactions transactions,
                          IdempotentRequests idempotent, CollectSessions sessions, PaymentObligations obligations,
                          PublicBase publicBase, Merchants merchants, TransactionTemplate tx) {

    static final String ORIGIN = "payment_page";
    /** How long a visitor has to pay at the checkout after continuing from the page. */
    static final Duration VISIT_LIFETIME = Duration.ofHours(1);

    /** What came of a payer's visit. */
    sealed interface VisitOutcome {
        /** A session to pay at (a new one, or the one this same form opened before). */
        record Opened(String sessionUrl) implements VisitOutcome {
        }

        /** The page stopped taking payments (or was deleted) before the visit was recorded. */
        record Closed() implements VisitOutcome {
        }

        /** The page's account does not take this amount now (its payment rules). */
        record AmountRefused() implements VisitOutcome {
        }
    }

    /** A page as its public URL shows it. */
    record PublicPage(PaymentPage page, String merchantName) {
        boolean testMode() {
            return page.mode() == Mode.TEST;
        }
    }

    // ---- the merchant's API ----------------------------------------------------------------------------------

    StoredResponse create(Caller caller, KeyedRequest request, PageInput input) {
        return idempotent.execute(caller, request, () -> {
            Instant now = Timestamps.now();
            PaymentPage page = PaymentPage.create(Ids.newPublicId("pp_"), caller, input, now);
            checkAccount(caller, page);
            pages.insert(page);
            return new IdempotentRequests.Result(201, view(page, now));
        });
    }

    PaymentPageView get(Caller caller, String id) {
        return view(pages.get(caller, id, false), Timestamps.now());
    }

    /** The page if it is the caller's (not deleted), for the dashboard. */
    Optional<PaymentPageView> find(Caller caller, String id) {
        return pages.find(caller, id, false).map(p -> view(p, Timestamps.now()));
    }

    ListPage<PaymentPageView> list(Caller caller, ListQuery query, String status, String externalReference) {
        Instant now = Timestamps.now();
        return ListPage.of(pages.list(caller, query, status, externalReference), query.limit(), PaymentPage::id,
                p -> view(p, now));
    }

    StoredResponse update(Caller caller, KeyedRequest request, String id, PageInput input) {
        return idempotent.execute(caller, request, () -> {
            Instant now = Timestamps.now();
            PaymentPage page = pages.get(caller, id, true).patched(input, now);
            if (input.given("amount") || input.given("amount_options")) {
                checkAccount(caller, page);
            }
            pages.update(page);
            return new IdempotentRequests.Result(200, view(page, now));
        });
    }

    /** {@code PATCH …/inactive}: an inactive page answers as it is. */
    StoredResponse deactivate(Caller caller, KeyedRequest request, String id) {
        return idempotent.execute(caller, request, () -> {
            Instant now = Timestamps.now();
            PaymentPage page = pages.get(caller, id, true);
            PaymentPage inactive = page.deactivated(now);
            if (inactive != page) {
                pages.update(inactive);
            }
            return new IdempotentRequests.Result(200, view(inactive, now));
        });
    }

    /** Marks the page deleted: later reads are 404; its transactions and payments stay. */
    void delete(Caller caller, String id) {
        tx.executeWithoutResult(s -> pages.delete(pages.get(caller, id, true), Timestamps.now()));
    }

    TransactionList transactions(Caller caller, String id, ListQuery query, String status) {
        PaymentPage page = pages.get(caller, id, false);
        return TransactionList.read(query, (after, before) -> transactions.page(page.id(), query, status, after, before));
    }

    /**
     * A page with an account checks it as a session would, for the fixed amount or the least the payer may choose:
     * 404 when there is no such account, 422 when it cannot take that payment. Each visit checks again.
     */
    private void checkAccount(Caller caller, PaymentPage page) {
        if (page.account() != null) {
            long amount = page.amount() != null ? page.amount() : page.amountOptions().min();
            obligations.check(caller, PaymentObligations.Kind.ACCOUNT, page.account(), amount, page.currency());
        }
    }

    private PaymentPageView view(PaymentPage page, Instant now) {
        return PaymentPageView.of(page, publicBase.url(), now);
    }

    // ---- the public page -------------------------------------------------------------------------------------

    /** A page that is not deleted, with its merchant's name. */
    Optional<PublicPage> show(String id) {
        return pages.findById(id).filter(p -> p.deletedAt() == null).map(p -> new PublicPage(p,
                merchants.byId(p.merchantId()).map(Merchants.Merchant::name).orElse("")));
    }

    /**
     * Records a payer's visit and opens its session, in one transaction; the same form ({@code formNonce}) posted
     * again answers the session it opened. The page is read again under a shared lock, so a visit cannot slip past
     * a concurrent {@code PATCH …/inactive} or DELETE.
     */
    VisitOutcome visit(String pageId, String formNonce, long amount, Visit.Details details) {
        try {
            return tx.execute(s -> {
                Instant now = Timestamps.now();
                Optional<PaymentPage> found = pages.findById(pageId, true).filter(p -> p.deletedAt() == null);
                if (found.isEmpty() || !found.get().takesPayments(now)) {
                    return new VisitOutcome.Closed();
                }
                PaymentPage page = found.get();
                if (!page.allows(amount)) {
                    // A PATCH changed the amount or its range after the form was checked.
                    return new VisitOutcome.AmountRefused();
                }
                Caller owner = Caller.system(page.merchantId(), page.mode());
                Visit visit = new Visit(Ids.newId("ppv_"), page.id(), null, formNonce, amount, page.currency(),
                        details, now);
                if (!visits.insertOnce(visit)) {
                    String sessionId = visits.byNonce(page.id(), formNonce).orElseThrow().paymentSessionId();
                    return new VisitOutcome.Opened(sessions.find(owner, sessionId).orElseThrow().sessionUrl());
                }
                var session = sessions.open(owner, new CollectSessions.Opening(amount, page.currency(),
                        page.account() == null ? null : PaymentObligations.Kind.ACCOUNT, page.account(), null,
                        page.visiblePaymentMethods(), page.returnUrl(), now.plus(VISIT_LIFETIME),
                        page.externalReference(), page.metadata(), new SessionOrigin.Ref(ORIGIN, page.id())));
                visits.opened(visit.id(), session.id());
                return new VisitOutcome.Opened(session.sessionUrl());
            });
        } catch (Rejected e) {
            // Billing refused the account (gone, or its rules refuse this amount now): nothing was recorded.
            return new VisitOutcome.AmountRefused();
        }
    }
}
