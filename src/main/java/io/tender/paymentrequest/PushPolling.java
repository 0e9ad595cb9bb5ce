package io.tender.paymentrequest;

import io.tender.auth.Caller;
import io.tender.payment.CollectSessions;
import io.tender.settlement.Recoverable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Nobody watches the checkout of a push request: the customer approves in the bank's app. So every
 * {@code tender.payment-requests.push-poll-interval} (default 2 s) this asks the processor about the attempts of
 * active push requests, and the approval (or decline) is recorded within seconds, without shortening the recovery
 * job's {@code min-age} for every payment. It also sends a push whose creating request died between its commit and
 * the push. Safe with several instances: each request is taken by one ({@code SKIP LOCKED}) and put off until the
 * next interval; a status query never sends anything, and a push is sent only by whoever claims it first. The
 * settlement kernel's {@link io.tender.settlement.Janitor} runs it.
 */
@Component
class PushPolling implements Recoverable<PaymentRequest> {

    /** How long the creating request has to send its push before the poller sends it instead. */
    static final Duration UNSENT_GRACE = Duration.ofSeconds(10);

    private final PaymentRequests requests;
    private final PaymentRequestService service;
    private final CollectSessions sessions;
    private final TransactionTemplate tx;
    private final Duration interval;

    PushPolling(PaymentRequests requests, PaymentRequestService service, CollectSessions sessions,
                TransactionTemplate tx,
                PaymentRequestSettings settings) {
        this.requests = requests;
        this.service = service;
        this.sessions = sessions;
        this.tx = tx;
        this.interval = settings.pushPollInterval();
    }

    @Override
    public String name() {
        return "push payment requests";
    }

    @Override
    public Duration interval() {
        return interval;
    }

    @Override
    public List<PaymentRequest> claim(Instant now, int limit) {
        return tx.execute(s -> requests.claimDuePushes(now, now.plus(interval), now.minus(UNSENT_GRACE), limit));
    }

    @Override
    public String id(PaymentRequest request) {
        return request.id();
    }

    /** Sends the push if nobody has, else asks after its attempt (which records an outcome once there is one). */
    @Override
    public void recover(PaymentRequest request, Instant now) {
        Caller owner = Caller.system(request.merchantId(), request.mode());
        if (!requests.pushStarted(request.id())) {
            service.push(owner, request);
            return;
        }
        sessions.find(owner, request.paymentSessionId())
                .filter(s -> s.paymentId() != null && s.status().equals("active"))
                .ifPresent(s -> sessions.refresh(owner, s.paymentId()));
    }
}
