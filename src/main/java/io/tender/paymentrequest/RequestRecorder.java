package io.tender.paymentrequest;

import io.tender.auth.Caller;
import io.tender.outbox.Outbox;
import io.tender.payment.PaymentView;
import io.tender.payment.PublicBase;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a request's row and the event of its change in one transaction (the caller's), so that no change is
 * without its event and no event without its change. Events carry the request as GET shows it; {@code .paid} also
 * its payment.
 */
@Component
class RequestRecorder {

    static final String AGGREGATE = "collect.payment_request";

    private final PaymentRequests requests;
    private final Outbox outbox;
    private final PublicBase publicBase;
    private final JsonMapper json;

    RequestRecorder(PaymentRequests requests, Outbox outbox, PublicBase publicBase, JsonMapper json) {
        this.requests = requests;
        this.outbox = outbox;
        this.publicBase = publicBase;
        this.json = json;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    void created(Caller caller, PaymentRequest request) {
        requests.insert(request);
        append(caller, request, PaymentRequest.Transition.CREATED, null);
    }

    /** Writes a change; {@code payment}: the payment that paid the request (for {@code .paid}), else null. */
    @Transactional(propagation = Propagation.MANDATORY)
    void changed(Caller caller, PaymentRequest request, PaymentRequest.Transition transition, PaymentView payment) {
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
