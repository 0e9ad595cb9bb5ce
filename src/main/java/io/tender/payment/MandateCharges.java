package io.tender.payment;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.PaymentProcessors;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The merchant's charge of a mandate without the customer ({@code next_in_series}, decisions §8), in three phases
 * around the processor call, like an attempt: one transaction claims the Idempotency-Key, locks the mandate, checks
 * every rule of §8 (active, the customer, the currency and amount, today an execution date or, on demand, within the
 * mandate's dates, an installment left, one charge per execution date, the period limit) over the charges that did
 * not fail, those in flight included, and records the session and its payment pending, its processor key derived
 * from the payment; the kept card is charged with no transaction open; {@link PaymentSettlement#finish} records the
 * answer, ends the session and counts the charge on the mandate. The 201 carries the outcome. A refusal is a 422
 * naming the rule, stored under the key, and nothing reaches the processor. Charges of one mandate queue on its row
 * and each sees the payments of those before it, so concurrent charges, on any number of instances, never take
 * more than the mandate allows.
 */
@Service
record MandateCharges(Mandates mandates, SavedPaymentMethods methods, PaymentSessions sessions, Payments payments,
                      PaymentObligations obligations, IdempotentRequests idempotent, IdempotencyKeys keys,
                      PaymentProcessors processors, Outbox outbox, PaymentSettlement settlement,
                      TransactionTemplate tx, JsonMapper json, Clock clock) {

    StoredResponse charge(Caller caller, KeyedRequest request, NewPaymentSession command) {
        String sessionId = Ids.newId("ps_");
        PaymentSettlement.Run run;
        switch (idempotent.start(caller, request, sessionId, () -> begin(caller, command, sessionId))) {
            case IdempotentRequests.Start.Answered<PaymentSettlement.Run>(StoredResponse response, var refusal) -> {
                return response;
            }
            case IdempotentRequests.Start.Running<PaymentSettlement.Run>(PaymentSettlement.Run started) -> run = started;
        }
        // An unknown outcome is shown pending; the recovery job asks the processor and finishes it.
        settlement.settleAndFinish(run);
        PaymentSession session = sessions.findById(sessionId, false).orElseThrow();
        StoredResponse response = StoredResponse.json(201, json.writeValueAsBytes(settlement.view(session)));
        if (request.key() != null) {
            tx.executeWithoutResult(s -> keys.complete(caller, request.key(), response));
        }
        return response;
    }

    /** The first phase, in the key's transaction: the rules under the mandate's lock, then the records. */
    private PaymentSettlement.Run begin(Caller caller, NewPaymentSession command, String sessionId) {
        Mandate mandate = mandateOf(caller, command);
        if (!mandate.fixed().customerId().equals(command.customer())) {
            throw new SeriesRejection.MethodOfAnotherCustomer(command.customer()).thrown();
        }
        if (mandate.fixed().subscriptionId() != null) {
            throw new SeriesRejection.MandateOfSubscription(mandate.id(), mandate.fixed().subscriptionId()).thrown();
        }
        LocalDate today = LocalDate.ofInstant(clock.instant(), mandate.terms().timeZone());
        mandate.refuseCharge(command.amount(), command.currency(), today, mandates.taken(mandate, today)).ifPresent(r -> {
            throw r.thrown();
        });
        // A mode without a processor is refused before anything is recorded.
        PaymentProcessor processor = processors.forMode(caller.mode());
        SavedPaymentMethod method = methods.get(caller, mandate.fixed().paymentMethodId());
        PaymentMethodInput.Saved card = methods.kept(method.id())
                .orElseThrow(() -> new SeriesRejection.NoActiveMandate(method.id()).thrown());
        Instant now = Timestamps.now();
        var options = new SessionOptions(new SessionOptions.CheckoutOptions(null, "redirect", null, "gateway",
                java.util.List.of(PaymentMethodType.CARD.wire()), null, null),
                new SessionOptions.PaymentMethodOptions(java.util.Map.of("capture_method", "automatic"), null, null,
                        null));
        PaymentSession session = new PaymentSession(sessionId, caller.merchantId(), caller.mode(),
                Ids.newPublicId("ckt_"), PaymentSession.NEXT_IN_SERIES, command.amount(), command.currency(),
                command.country(), command.customer(), null, null, command.externalReference(), command.metadata(),
                command.expiresAt(), now, options, PaymentSession.Status.ACTIVE, "not_started", null, null, 0, false, 1,
                now).withPaymentMethod(method.id()).ofMandate(mandate.id(), null);
        sessions.insert(session);
        outbox.append(caller, settlement.sessionEvent(session, PaymentSession.Transition.CREATED.eventType()));
        Payment payment = Payment.charge(new Payment.Terms(caller.merchantId(), caller.mode(), Payment.Intent.PAYMENT,
                        Payment.CaptureMethod.AUTOMATIC, command.amount(), command.currency(), command.country(),
                        command.customer(), null), session, method, Payment.SeriesCharge.ofMandate(mandate.id(), today),
                command.metadata(), now);
        payment.beginAuthorization(now);
        payments.insert(payment, settlement.lease());
        var transition = session.attemptStarted(payment.id(), now);
        sessions.update(session);
        outbox.append(caller, settlement.sessionEvent(session, transition.eventType()));
        return settlement.new Run(caller, payment, session, processor, card);
    }

    /**
     * The mandate the command names, locked: by {@code mandate_id}, or the active one of {@code payment_method_id}
     * (whose customer must be the command's). Both given must agree.
     */
    private Mandate mandateOf(Caller caller, NewPaymentSession command) {
        if (command.paymentMethodId() != null) {
            SavedPaymentMethod method = methods.get(caller, command.paymentMethodId());
            if (method.customerId() == null || !method.customerId().equals(command.customer())) {
                throw new SeriesRejection.MethodOfAnotherCustomer(command.customer()).thrown();
            }
        }
        if (command.mandateId() == null) {
            return mandates.lockActiveOf(caller, command.paymentMethodId())
                    .orElseThrow(() -> new SeriesRejection.NoActiveMandate(command.paymentMethodId()).thrown());
        }
        Mandate mandate = mandates.get(caller, command.mandateId(), true);
        if (command.paymentMethodId() != null && !command.paymentMethodId().equals(mandate.fixed().paymentMethodId())) {
            throw new SeriesRejection.MandateOfAnotherMethod(mandate.id(), command.paymentMethodId()).thrown();
        }
        return mandate;
    }
}
