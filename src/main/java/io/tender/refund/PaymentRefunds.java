package io.tender.refund;

import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.Answer;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import io.tender.payment.CapturedPayments;
import io.tender.payment.PaymentObligations;
import io.tender.payment.PaymentSettings;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.PaymentProcessors;
import io.tender.processor.ProcessorOutcome;
import io.tender.settlement.PendingCall;
import io.tender.settlement.Recoverable;
import io.tender.settlement.Settlement;
import io.tender.settlement.WaitingKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Refunds (decisions §10), in three phases around the processor call, like captures: one transaction claims the
 * Idempotency-Key, locks the payment, checks that the refunds not failed stay within its {@code paid_amount}, and
 * records the refund as a draft with its processor key; the processor is called with no transaction open; one
 * transaction records the answer with its events, completes the key, and for a success adds to the payment's
 * {@code refunded_amount} and reverses that much of its application to a bill, account or customer. The request
 * answers 201 with the refund whatever its status. A refund the processor accepted for later, or whose outcome stayed
 * unknown, is {@code pending}; as this kind's share of the settlement kernel's janitor, this class asks the processor
 * about it (never resending it; one that never arrived goes again under a fresh key) until it is final.
 */
@Service
public record PaymentRefunds(CapturedPayments payments, Refunds refunds, IdempotentRequests idempotent, IdempotencyKeys keys,
                      WaitingKeys waitingKeys, PaymentProcessors processors, PaymentObligations obligations,
                      Outbox outbox, TransactionTemplate tx, JsonMapper json, PaymentSettings settings)
        implements Recoverable<Refund> {

    private static final Logger log = LoggerFactory.getLogger(PaymentRefunds.class);
    static final String AGGREGATE = "collect.refund";

    /** A refund recorded by the first phase, and the processor it goes to. */
    private record Started(Refund refund, PaymentProcessor processor) {
    }

    /** What the merchant asked to refund: {@code amount} null for all that is left. */
    public record NewRefund(Long amount, RefundReason reason, Map<String, String> metadata) {
    }

    /**
     * What of the payment may still be refunded now ({@link Refund#refundable}, the rule the refund itself is held
     * to): what a page offers. 0 for an unknown payment.
     */
    public long refundable(Caller caller, String paymentId) {
        return payments.find(caller, paymentId).map(p -> Refund.refundable(p, refunds.committed(p.id()))).orElse(0L);
    }

    /**
     * Refunds {@code command} of the payment ({@code ifMatch}: the payment's version the caller read, or null).
     * Answers the refund whatever its status (a declined one is {@code failed}).
     */
    public Answer<RefundView> refund(Caller caller, String paymentId, KeyedRequest request, Integer ifMatch,
                                     NewRefund command) {
        String refundId = Refund.newId();
        var start = idempotent.start(caller, request, refundId, () -> {
            CapturedPayments.Captured payment = payments.lock(caller, paymentId, ifMatch);
            Refund refund = Refund.draft(refundId, payment, refunds.committed(payment.id()), command.amount(),
                    command.reason(), command.metadata(), Timestamps.now());
            // A refund the mode has no processor for is refused before anything is recorded.
            PaymentProcessor processor = processors.forMode(caller.mode());
            refunds.insert(refund, settings.lease());
            payments.refundRecorded(payment.id());
            return new Started(refund, processor);
        });
        if (start instanceof IdempotentRequests.Start.Answered<Started> answered) {
            return idempotent.answer(answered, RefundView.class);
        }
        Started started = ((IdempotentRequests.Start.Running<Started>) start).value();
        Refund refund = started.refund();
        List<Refund.Transition> transitions = settle(refund, started.processor(), Settlement.Mode.SEND);
        StoredResponse response = answer(refund);
        tx.executeWithoutResult(s -> {
            write(caller, refund, transitions);
            if (request.key() != null) {
                keys.complete(caller, request.key(), response);
            }
        });
        return Answer.done(RefundView.of(refund), response);
    }

    RefundView get(Caller caller, String id) {
        return refunds.find(caller, id).map(RefundView::of)
                .orElseThrow(() -> new RefundRejection.RefundNotFound().thrown());
    }

    // ---- the janitor ----------------------------------------------------------------------------------------

    @Override
    public String name() {
        return "refunds";
    }

    @Override
    public Duration interval() {
        return settings.recovery().interval();
    }

    @Override
    public List<Refund> claim(Instant now, int limit) {
        return refunds.claimUnfinished(now.minus(settings.recovery().minAge()), now.minus(settings.recovery().interval()),
                settings.lease(), limit);
    }

    @Override
    public String id(Refund refund) {
        return refund.id();
    }

    /**
     * Asks the processor about a refund left unsettled (accepted for later, unknown, or a draft a crash left), never
     * sending it again under its key; one the processor never received is sent again under a fresh key, since the
     * merchant asked for it. A final refund completes every Idempotency-Key still waiting on it.
     */
    @Override
    public void recover(Refund refund, Instant now) {
        var processor = processors.find(refund.mode());
        if (processor.isEmpty()) {
            log.warn("Cannot recover {}: no processor for {} mode", refund.id(), refund.mode().wire());
            refunds.release(refund);
            return;
        }
        List<Refund.Transition> transitions = settle(refund, processor.get(), new Settlement.Mode(true, true, false));
        Caller owner = Caller.system(refund.merchantId(), refund.mode());
        tx.executeWithoutResult(s -> {
            write(owner, refund, transitions);
            if (!refund.call().open()) {
                StoredResponse answer = answer(refund);
                waitingKeys.complete(refund.merchantId(), refund.mode().wire(), refund.id(), waiting -> answer);
            }
        });
        if (!refund.call().open()) {
            log.info("Recovered {}: {}", refund.id(), refund.status().wire());
        }
    }

    // ---- shared -----------------------------------------------------------------------------------------------

    /**
     * Drives the refund's call through the kernel and records where it stands (in memory): settled, accepted for
     * later, or unknown (shown {@code pending}, for the janitor to ask after).
     */
    private List<Refund.Transition> settle(Refund refund, PaymentProcessor processor, Settlement.Mode mode) {
        return switch (Settlement.resolve(new RefundCall(refund, processor,
                () -> tx.executeWithoutResult(s -> refunds.update(refund, settings.lease()))), mode)) {
            case Settlement.Resolution.Settled<ProcessorOutcome>(ProcessorOutcome outcome) ->
                    refund.settle(outcome, Timestamps.now());
            case Settlement.Resolution.Unknown<ProcessorOutcome> unknown -> {
                log.warn("Outcome of refund {} is unknown; the recovery job will ask after it", refund.id());
                yield refund.markUnknown(Timestamps.now());
            }
            case Settlement.Resolution.NotArrived<ProcessorOutcome> notArrived -> List.of();
        };
    }

    /**
     * Writes the refund (releasing it) with its events, in the caller's transaction; a success adds to the payment's
     * {@code refunded_amount} and reverses that much of its application to an obligation, if it has one.
     */
    private void write(Caller owner, Refund refund, List<Refund.Transition> transitions) {
        refunds.update(refund, null);
        for (Refund.Transition transition : transitions) {
            outbox.append(owner, new Outbox.Event(AGGREGATE, refund.id(), transition.eventType(), refund.updatedAt(),
                    json.writeValueAsBytes(RefundView.of(refund))));
            if (transition == Refund.Transition.SUCCEEDED) {
                payments.refunded(refund.paymentId(), refund.amount());
                obligations.reverseRefunded(owner, refund.paymentId(), refund.id(), refund.amount())
                        .ifPresent(reason -> log.error("Refund {} succeeded but its payment's application could not"
                                + " be reversed: {}. An operator must reconcile it.", refund.id(), reason));
            }
        }
    }

    private StoredResponse answer(Refund refund) {
        return StoredResponse.json(201, json.writeValueAsBytes(RefundView.of(refund)));
    }

    /** A refund's processor call, as the kernel drives it; {@code saved} writes the refund after a new key. */
    private record RefundCall(Refund refund, PaymentProcessor processor, Runnable saved)
            implements PendingCall<ProcessorOutcome> {

        @Override
        public ProcessorOutcome send() {
            return processor.refund(new PaymentProcessor.Refund(refund.processorKey(),
                    refund.terms().authorizationKey(), refund.amount(), refund.currency()));
        }

        @Override
        public ProcessorOutcome status() {
            return processor.status(refund.processorKey());
        }

        @Override
        public Verdict classify(ProcessorOutcome outcome) {
            return switch (outcome) {
                // A refund never waits for the customer: such an answer is outside the protocol, so money may have moved.
                case ProcessorOutcome.Unknown u -> Verdict.UNKNOWN;
                case ProcessorOutcome.ActionRequired r -> Verdict.UNKNOWN;
                case ProcessorOutcome.Declined d when d.neverReceived() -> Verdict.NEVER_RECEIVED;
                default -> Verdict.DEFINITE;
            };
        }

        @Override
        public void reissue() {
            refund.reissue(Timestamps.now());
            saved.run();
        }
    }
}
