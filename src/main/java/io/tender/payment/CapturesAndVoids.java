package io.tender.payment;

import io.tender.settlement.CallStatus;
import io.tender.api.Rejections;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.Answer;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.processor.PaymentProcessors;
import io.tender.settlement.Settlement;
import io.tender.settlement.StaleWrite;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The merchant's captures and voids of a manual authorization ({@code POST /collect/payments/{id}/capture|void}), in
 * three phases around the processor call: one transaction claims the Idempotency-Key, checks {@code If-Match} and the
 * payment's amounts, and records the call pending; the processor is called with no transaction open; one transaction
 * records the answer with its events and completes the key. An answer that stays unknown answers 504 and is left to
 * {@link PaymentRecovery}, which completes the key once the payment is final.
 */
@Service
public record CapturesAndVoids(Payments payments, IdempotentRequests idempotent, IdempotencyKeys keys,
                        PaymentProcessors processors, PaymentSettlement settlement, PaymentViews views,
                        TransactionTemplate tx,
                        Rejections rejections) {

    /**
     * Captures {@code amount} (null: all that the authorization still holds); {@code ifMatch}: the version the
     * caller read, or null. Answers the payment as it is after the capture.
     */
    public Answer<PaymentView> capture(Caller caller, String id, KeyedRequest request, Integer ifMatch, Long amount,
                                       Map<String, String> metadata) {
        return act(caller, id, request, ifMatch, payment -> {
            Instant now = Timestamps.now();
            payment.notCapturable(now).ifPresent(reason -> {
                throw new PaymentRejection.NotCapturable(reason).thrown();
            });
            long remaining = payment.remaining();
            if (remaining == 0) {
                throw new PaymentRejection.NothingToCapture().thrown();
            }
            long captured = amount == null ? remaining : amount;
            if (captured > remaining) {
                throw new PaymentRejection.CaptureOverRemaining(captured, remaining).thrown();
            }
            payment.mergeMetadata(metadata, now);
            payment.beginCapture(captured, now);
        });
    }

    /** Voids what the authorization still holds; answers the payment as it is after the void. */
    public Answer<PaymentView> voidPayment(Caller caller, String id, KeyedRequest request, Integer ifMatch,
                                           Map<String, String> metadata) {
        return act(caller, id, request, ifMatch, payment -> {
            Instant now = Timestamps.now();
            payment.notCapturable(now).ifPresent(reason -> {
                throw new PaymentRejection.NotCapturable(reason).thrown();
            });
            if (payment.remaining() == 0) {
                throw new PaymentRejection.NothingToVoid().thrown();
            }
            payment.mergeMetadata(metadata, now);
            payment.beginVoid(now);
        });
    }

    /**
     * What a capture or void of the payment would take now (0 when neither is allowed: not a manual authorization
     * still held, expired, or with a call in flight), as {@link Payment#capturable} decides it for both the API and
     * the dashboard. An unknown payment holds nothing.
     */
    public long capturable(Caller caller, String id) {
        return payments.find(caller, id).map(p -> p.capturable(Timestamps.now())).orElse(0L);
    }

    private Answer<PaymentView> act(Caller caller, String id, KeyedRequest request, Integer ifMatch,
                                    Consumer<Payment> begin) {
        var start = idempotent.start(caller, request, id, () -> {
            Payment payment = payments.get(caller, id);
            if (ifMatch != null && ifMatch != payment.version()) {
                throw new PaymentRejection.VersionMismatch(payment.version(), ifMatch).thrown();
            }
            var processor = processors.forMode(caller.mode());
            begin.accept(payment);
            try {
                payments.update(payment, settlement.lease());
            } catch (StaleWrite e) {
                throw new PaymentRejection.ChangedConcurrently().thrown();
            }
            return settlement.new Run(caller, payment, null, processor, null);
        });
        if (start instanceof IdempotentRequests.Start.Answered<PaymentSettlement.Run> answered) {
            return idempotent.answer(answered, PaymentView.class);
        }
        PaymentSettlement.Run run = ((IdempotentRequests.Start.Running<PaymentSettlement.Run>) start).value();
        if (!settlement.settle(run, Settlement.Mode.SEND)) {
            run.save(null);
            throw new PaymentRejection.NoDefiniteAnswer(run.payment.id()).thrown();
        }
        PaymentOperation settled = run.payment.operations().getLast();
        Answer<PaymentView> answer = settled.status() == CallStatus.FAILED
                ? Answer.refused(refused(settled), request.failures().apply(rejections.problem(refused(settled))))
                : Answer.done(PaymentView.of(run.payment), views.answer(run.payment));
        tx.executeWithoutResult(s -> {
            run.write(null);
            if (request.key() != null) {
                keys.complete(caller, request.key(), answer.response());
            }
        });
        return answer;
    }

    private static PaymentRejection refused(PaymentOperation operation) {
        return new PaymentRejection.ProcessorRefused(operation.type().wire(),
                operation.error() == null ? null : operation.error().message());
    }
}
