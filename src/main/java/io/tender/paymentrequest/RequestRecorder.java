package io.tender.paymentrequest;

import io.tender.auth.Caller;
import io.tender.database.Transactions;
import io.tender.outbox.Outbox;
import io.tender.payment.PaymentView;
import io.tender.payment.PublicBase;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a request's row and the event of its change in one transaction (the caller's), so that no change is
 * without its event and no event without its change. Events carry the request as GET shows it; {@code .paid} also
 * its payment.
 */
@Component
record RequestRecorder(PaymentRequests requests, Outbox outbox, PublicBase publicBase, JsonMapper json) {

    static final String AGGREGATE = "collect.payment_request";

    void created(Caller caller, PaymentRequest request) {
        Transactions.mandatory("recording a new payment request");
        requests.insert(request);
        append(caller, request, PaymentRequest.Transition.CREATED, null);
    }

    /** Writes a change; {@code payment}: the payment that paid the request (for {@code .paid}), else null. */
    void changed(Caller caller, PaymentRequest request, PaymentRequest.Transition transition, PaymentView payment) {
        Transactions.mandatory("recording a payment request's change");
        requests.update(request);
        append(caller, request, transition, payment);
    }

    PaymentRequestView view(PaymentRequest request) {
        return PaymentRequestView.of(request, link(request));
    }

    /** The request's link: its session's hosted checkout. */
    String link(PaymentRequest request) {
        return publicBase.checkoutUrl(request.checkoutSessionId());
    }

    private void append(Caller caller, PaymentRequest request, PaymentRequest.Transition transition,
                        PaymentView payment) {
        outbox.append(caller, new Outbox.Event(AGGREGATE, request.id(), transition.eventType(), request.updatedAt(),
                json.writeValueAsBytes(PaymentRequestView.of(request, link(request), payment))));
    }
}
