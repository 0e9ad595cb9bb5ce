package io.tender.paymentrequest;

import io.tender.api.NotFound;
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Rejected;
import io.tender.api.Rejections;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.billing.CustomerContacts;
import io.tender.idempotency.Answer;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.payment.CollectSessions;
import io.tender.payment.PaymentError;
import io.tender.payment.PaymentObligations;
import io.tender.payment.PaymentSessionView;
import io.tender.payment.SessionOrigin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Payment requests' application service (decisions §7); knows no HTTP. A request and its payment session are made in
 * one transaction (with {@code payment_request.created}); a push is sent after that transaction commits, by whoever
 * first claims it, so that no replay and no second instance ever pushes twice. PATCH and DELETE take the session's row
 * and then the request's, the order in which the session's own moves reach the request.
 */
@Service
record PaymentRequestService(PaymentRequests requests, RequestRecorder recorder, CollectSessions sessions,
                             CustomerContacts contacts, RequestNotifications notifications,
                             IdempotentRequests idempotent, TransactionTemplate tx, Rejections rejections) {

    private static final Logger log = LoggerFactory.getLogger(PaymentRequestService.class);

    /** Makes the request and its session; then, for a push made just now (not a replay), sends the push. */
    Answer<PaymentRequestView> create(Caller caller, KeyedRequest keyed, NewPaymentRequest command) {
        AtomicReference<PaymentRequest> made = new AtomicReference<>();
        Answer<PaymentRequestView> response = idempotent.answer(caller, keyed, 201, PaymentRequestView.class, () -> {
            PaymentRequest request = open(caller, command);
            made.set(request);
            return recorder.view(request);
        });
        PaymentRequest request = made.get();
        if (request != null && request.type() == PaymentRequest.Type.PUSH) {
            push(caller, request);
        }
        return response;
    }

    private PaymentRequest open(Caller caller, NewPaymentRequest command) {
        PaymentRequest.Customer customer = command.inlineCustomer();
        if (command.customerId() != null) {
            customer = contacts.find(caller, command.customerId())
                    .map(c -> new PaymentRequest.Customer(c.customerId(), c.name(), c.email(), c.phone()))
                    .orElseThrow(() -> new NotFound("customer").thrown());
        }
        notifications.check(caller, customer, command.notifyChannels());
        String id = Ids.newOrderedId("pr_");
        Instant now = command.requestedAt();
        PaymentSessionView session = sessions.open(caller, new CollectSessions.Opening(command.amount(),
                command.currency(), command.target(), command.targetReference(), command.customerId(),
                command.visible(), null, command.expiresAt(), command.externalReference(), command.metadata(),
                new SessionOrigin.Ref(PaymentRequestOrigin.KIND, id)));
        PaymentRequest.Target target = command.target() == null ? null : new PaymentRequest.Target(
                command.target() == PaymentObligations.Kind.BILL ? command.targetReference() : null,
                command.target() == PaymentObligations.Kind.ACCOUNT ? command.targetReference() : null,
                session.obligationId());
        PaymentRequest request = new PaymentRequest(id, caller.merchantId(), caller.mode(), command.type(),
                PaymentRequest.Status.ACTIVE, session.amount(), session.currency(), command.description(),
                command.externalReference(), command.expiresAt(), session.id(), session.checkoutSessionId(), null,
                null, customer, target, command.visible(), command.pushPhoneNumber(), command.notifyChannels(),
                command.metadata(), 1, now, now);
        recorder.created(caller, request);
        notifications.enqueue(caller, request, recorder.link(request));
        return request;
    }

    /**
     * Sends a push request's push, once: only the caller that claims it sends it (the creating request, or the poller
     * for a request whose creator died before). A push that cannot be sent fails the request.
     */
    void push(Caller caller, PaymentRequest request) {
        if (!requests.claimPush(request.id())) {
            return;
        }
        try {
            sessions.push(caller, request.paymentSessionId(), request.pushPhoneNumber());
        } catch (RuntimeException e) {
            String reason = e instanceof Rejected r ? rejections.problem(r.rejection()).code().name().toLowerCase()
                    : e.getClass().getSimpleName();
            log.warn("The push of payment request {} could not be sent ({}); the request fails", request.id(), reason);
            try {
                tx.executeWithoutResult(s -> failUnsent(caller, request.id(), e));
            } catch (RuntimeException again) {
                log.error("Payment request {} could not be marked failed; it expires at its expires_at", request.id(),
                        again);
            }
        }
    }

    /** A push that never reached the processor: the request fails, and its session (if still active) ends. */
    private void failUnsent(Caller caller, String id, RuntimeException cause) {
        PaymentRequest request = requests.find(caller, id, false).orElseThrow();
        boolean sessionActive = sessions.lock(caller, request.paymentSessionId()).status().equals("active");
        PaymentRequest locked = requests.find(caller, id, true).orElseThrow();
        if (locked.status() != PaymentRequest.Status.ACTIVE) {
            return;
        }
        // The refusal's problem detail (never a request value); anything else is not the customer's to read.
        String message = cause instanceof Rejected r ? rejections.problem(r.rejection()).getMessage()
                : "The push could not be sent.";
        Instant now = Timestamps.now();
        recorder.changed(caller, locked, locked.fail(new PaymentError("push_failed", null, message,
                Timestamps.format(now)), now), null);
        if (sessionActive) {
            sessions.cancel(caller, locked.paymentSessionId());
        }
    }

    PaymentRequestView get(Caller caller, String id) {
        return recorder.view(requests.find(caller, id, false).orElseThrow(PaymentRequestService::notFound));
    }

    ListPage<PaymentRequestView> list(Caller caller, ListQuery query, String status, String type,
                                      String externalReference, String customer) {
        return ListPage.of(requests.list(caller, query, status, type, externalReference, customer), query.limit(),
                PaymentRequest::id, recorder::view);
    }

    /** PATCH while active: description, external_reference, expires_at (the session's too), metadata. */
    StoredResponse update(Caller caller, KeyedRequest keyed, String id, Integer ifMatch, PaymentRequestPatch patch) {
        return idempotent.execute(caller, keyed, () -> {
            PaymentRequest request = lockForChange(caller, id, ifMatch);
            Instant now = Timestamps.now();
            NewPaymentRequest.Lifetime lifetime = NewPaymentRequest.Lifetime.of(request.type());
            if (patch.expiresAt() != null && !lifetime.allows(patch.expiresAt(), now)) {
                throw new PaymentRequestRejection.ExpiryOutsideLifetime(lifetime).thrown();
            }
            var transition = request.patch(patch, now);
            if (transition.isPresent()) {
                if (patch.expiresAt() != null) {
                    sessions.reschedule(caller, request.paymentSessionId(), request.expiresAt());
                }
                recorder.changed(caller, request, transition.get(), null);
            }
            return new IdempotentRequests.Result(200, recorder.view(request));
        });
    }

    /**
     * DELETE while active and no attempt is in flight: the session is cancelled, and the request with it (by
     * {@link PaymentRequestOrigin}, as for any move). The request stays retrievable.
     */
    Answer<PaymentRequestView> cancel(Caller caller, KeyedRequest keyed, String id, Integer ifMatch) {
        return idempotent.answer(caller, keyed, 200, PaymentRequestView.class, () -> {
            PaymentRequest request = lockForChange(caller, id, ifMatch);
            sessions.cancel(caller, request.paymentSessionId());
            return recorder.view(requests.find(caller, id, true).orElseThrow());
        });
    }

    /** Whether {@link #cancel} would take the request now (without If-Match): the rule, asked, not taken. */
    boolean cancellable(Caller caller, String id) {
        return requests.find(caller, id, false)
                .filter(request -> request.refusal(null).isEmpty())
                .map(request -> sessions.cancellable(caller, request.paymentSessionId()))
                .orElse(false);
    }

    /** The request, its session's row and then its own held; 404, or 409 unless active at the version read. */
    private PaymentRequest lockForChange(Caller caller, String id, Integer ifMatch) {
        PaymentRequest read = requests.find(caller, id, false).orElseThrow(PaymentRequestService::notFound);
        sessions.lock(caller, read.paymentSessionId());
        PaymentRequest request = requests.find(caller, id, true).orElseThrow(PaymentRequestService::notFound);
        request.refusal(ifMatch).ifPresent(refusal -> {
            throw new PaymentRequestRejection.Refused(refusal).thrown();
        });
        return request;
    }

    /** Unknown ids, and other merchants' and the other mode's requests (decisions §1). */
    private static RuntimeException notFound() {
        return new NotFound("payment request").thrown();
    }
}
