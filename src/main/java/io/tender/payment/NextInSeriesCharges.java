package io.tender.payment;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.PaymentProcessors;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.List;

/**
 * The merchant's charge of a mandate without the customer ({@code next_in_series}, decisions §8), in three phases
 * around the processor call, like an attempt: one transaction claims the Idempotency-Key, asks the mandate's rules
 * ({@link MandateRules}: every rule of §8 over the charges that did not fail, those in flight included, under the
 * mandate's lock) and records the session and its payment pending, its processor key derived from the payment; the
 * kept card is charged with no transaction open; {@link SettledCalls#finish} records the answer, ends the session and
 * counts the charge on the mandate ({@link ChargeOutcomes}). The 201 carries the outcome. A refusal is a 422 naming
 * the rule, stored under the key, and nothing reaches the processor. Charges of one mandate queue on its row and each
 * sees the payments of those before it, so concurrent charges, on any number of instances, never take more than the
 * mandate allows.
 */
@Service
record NextInSeriesCharges(MandateRules rules, SavedPaymentMethods methods, PaymentSessions sessions,
                           Payments payments, IdempotentRequests idempotent, PaymentProcessors processors,
                           PaymentSettlement settlement, SettledCalls settled, SessionMoves moves, PaymentViews views) {

    StoredResponse charge(Caller caller, KeyedRequest request, NewPaymentSession command) {
        String sessionId = Ids.newId("ps_");
        PaymentSettlement.Run run;
        switch (idempotent.start(caller, request, sessionId, () -> begin(caller, command, sessionId))) {
            case IdempotentRequests.Start.Answered<PaymentSettlement.Run> answered -> {
                return answered.response();
            }
            case IdempotentRequests.Start.Running<PaymentSettlement.Run>(PaymentSettlement.Run started) -> run = started;
        }
        // An unknown outcome is shown pending; the recovery job asks the processor and finishes it.
        settled.settleAndFinish(run);
        return idempotent.completed(caller, request, views.created(sessions.findById(sessionId, false).orElseThrow()));
    }

    /** The first phase, in the key's transaction: the rules under the mandate's lock, then the records. */
    private PaymentSettlement.Run begin(Caller caller, NewPaymentSession command, String sessionId) {
        String methodCustomer = command.paymentMethodId() == null ? null
                : methods.get(caller, command.paymentMethodId()).customerId();
        MandateRules.Allowed allowed = rules.allow(caller, new MandateRules.Charge(command.customer(),
                command.mandateId(), command.paymentMethodId(), methodCustomer, command.amount(), command.currency()),
                paymentMethodId -> methods.kept(paymentMethodId).isPresent());
        // A mode without a processor is refused before anything is recorded.
        PaymentProcessor processor = processors.forMode(caller.mode());
        SavedPaymentMethod method = methods.get(caller, allowed.paymentMethodId());
        PaymentMethodInput.Saved card = methods.kept(method.id()).orElseThrow();
        Instant now = Timestamps.now();
        PaymentSession session = PaymentSession.opened(new PaymentSession.Terms(sessionId, caller.merchantId(),
                caller.mode(), Ids.newPublicId("ckt_"), PaymentSession.NEXT_IN_SERIES, command.amount(),
                command.currency(), command.country(), command.customer(), null, null, command.externalReference(),
                command.metadata(), now), SessionOptions.redirect(null, List.of(PaymentMethodType.CARD.wire())),
                command.expiresAt())
                .withPaymentMethod(method.id()).ofMandate(allowed.mandateId(), null);
        moves.opened(caller, session);
        Payment payment = Payment.charge(new Payment.Terms(caller.merchantId(), caller.mode(), PaymentIntent.PAYMENT,
                        CaptureMethod.AUTOMATIC, command.amount(), command.currency(), command.country(),
                        command.customer(), null), session, method,
                SeriesCharge.ofMandate(allowed.mandateId(), allowed.chargeDate()), command.metadata(), now);
        payment.beginAuthorization(now);
        payments.insert(payment, settlement.lease());
        moves.recorded(caller, session, session.attemptStarted(payment.id(), now));
        return settlement.new Run(caller, payment, session, processor, card);
    }
}
