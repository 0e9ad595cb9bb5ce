package io.tender.paymentpage;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import io.tender.payment.PaymentView;
import io.tender.payment.PublicBase;
import io.tender.payment.SessionOrigin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * What payments tell a page about the sessions its visits opened (decisions §7): each ended attempt becomes the
 * page's transaction ({@code succeeded}, or {@code failed} for a declined or expired one) with the visit's details,
 * once per payment, in the transaction that records the attempt's end; a succeeded one sends
 * {@code payment_page.payment_received}. The checkout shows the page's title and a link back to it, and no Cancel
 * button: a payer who changes their mind goes back to the page.
 */
@Component
record PaymentPageOrigin(PaymentPages pages, PageVisits visits, PageTransactions transactions, Outbox outbox,
                         JsonMapper json, PublicBase publicBase) implements SessionOrigin {

    static final String AGGREGATE = "collect.payment_page";
    static final String PAYMENT_RECEIVED = "payment_page.payment_received";
    private static final Logger log = LoggerFactory.getLogger(PaymentPageOrigin.class);
    private static final Set<String> ENDED = Set.of("succeeded", "failed", "expired");

    @Override
    public String kind() {
        return PaymentPageService.ORIGIN;
    }

    @Override
    public void moved(Caller owner, Move move) {
        PaymentView attempt = move.endedAttempt();
        if (attempt == null || !ENDED.contains(attempt.status())) {
            return;
        }
        Optional<Visit> visit = visits.bySession(move.session().id())
                .filter(v -> v.paymentPageId().equals(move.originId()));
        if (visit.isEmpty()) {
            // Never expected: the visit and its session are written together. The payment stands; the page misses it.
            log.error("Payment {} of session {} has no visit of page {}: not recorded as a page transaction",
                    attempt.id(), move.session().id(), move.originId());
            return;
        }
        Instant now = Timestamps.now();
        boolean succeeded = attempt.status().equals("succeeded");
        PageTransaction transaction = new PageTransaction(Ids.newOrderedId("pt_"), move.originId(),
                owner.merchantId(), owner.mode(), succeeded ? "succeeded" : "failed", attempt.amount(),
                attempt.currency(), visit.get().details(), attempt.id(), move.session().id(),
                move.session().checkoutSessionId(), now, now, attempt.refundedAmount());
        if (transactions.insertOnce(transaction) && succeeded) {
            outbox.append(owner, new Outbox.Event(AGGREGATE, move.originId(), PAYMENT_RECEIVED, now,
                    json.writeValueAsBytes(PageTransactionView.of(transaction).withPayment(attempt))));
        }
    }

    /** A deleted page keeps its title but offers no way back to it. */
    @Override
    public Optional<Presentation> present(String originId) {
        return pages.findById(originId).map(p -> new Presentation(p.title(), p.description(),
                p.deletedAt() == null ? PaymentPageView.pageUrl(publicBase.url(), p.id()) : null, false, null));
    }
}
