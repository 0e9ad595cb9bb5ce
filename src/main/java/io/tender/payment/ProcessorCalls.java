package io.tender.payment;

import io.tender.settlement.CallStatus;
import io.tender.api.Ids;
import io.tender.settlement.OperationKeys;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A payment's processor calls, oldest first, and the rule they follow: one call at a time, but for the void of an
 * authorization still waiting for the customer, which goes out beside it. Each call's processor key is derived from
 * the payment and its type ({@code pay_…:capture}; the second capture {@code pay_…:capture:2}) and, once fenced, goes
 * again under a fresh one.
 */
final class ProcessorCalls {

    private final String paymentId;
    private final List<PaymentOperation> calls = new ArrayList<>();

    ProcessorCalls(String paymentId, List<PaymentOperation> calls) {
        this.paymentId = paymentId;
        this.calls.addAll(calls);
    }

    /** Records a call about to be sent, pending, under its key; refused while another is pending. */
    PaymentOperation add(PaymentOperation.Type type, long amount, String authorizationKey, Instant now) {
        Optional<PaymentOperation> pending = pending();
        boolean releasesWaiting = type == PaymentOperation.Type.VOID && pending.equals(awaitingCustomer());
        if (pending.isPresent() && !releasesWaiting) {
            throw new IllegalStateException("an operation is already pending on " + paymentId);
        }
        PaymentOperation call = PaymentOperation.pending(Ids.newId("op_"), type, amount,
                OperationKeys.of(paymentId, type.wire(), ofType(type)), authorizationKey, now);
        calls.add(call);
        return call;
    }

    /**
     * The first call not settled yet (pending or unknown): a void of an authorization still waiting for the customer
     * comes after it.
     */
    Optional<PaymentOperation> pending() {
        return calls.stream().filter(o -> o.status().open())
                .reduce((first, second) -> second.type() == PaymentOperation.Type.VOID ? second : first);
    }

    PaymentOperation requirePending() {
        return pending().orElseThrow(() -> new IllegalStateException("nothing pending on " + paymentId));
    }

    Optional<PaymentOperation> pendingAuthorization() {
        return calls.stream().filter(o -> o.type() == PaymentOperation.Type.AUTHORIZE && o.status().open())
                .findFirst();
    }

    /** The approved authorization, which captures and voids refer to. */
    Optional<PaymentOperation> authorization() {
        return calls.stream().filter(o -> o.type() == PaymentOperation.Type.AUTHORIZE
                && o.status() == CallStatus.SUCCEEDED).findFirst();
    }

    /** The authorization waits for the customer (3-D Secure, a bank page, an app). */
    Optional<PaymentOperation> awaitingCustomer() {
        return pendingAuthorization().filter(o -> o.action() != null);
    }

    /** Puts {@code changed} where {@code call} stood; returns it. */
    PaymentOperation replace(PaymentOperation call, PaymentOperation changed) {
        calls.set(calls.indexOf(call), changed);
        return changed;
    }

    /** The processor key of the pending call is fenced: the call goes again under a fresh key, recorded first. */
    void reissuePending() {
        PaymentOperation call = requirePending();
        replace(call, call.rekeyed(OperationKeys.reissued(call.processorKey(), ofType(call.type()))));
    }

    List<PaymentOperation> list() {
        return List.copyOf(calls);
    }

    private long ofType(PaymentOperation.Type type) {
        return calls.stream().filter(o -> o.type() == type).count();
    }
}
