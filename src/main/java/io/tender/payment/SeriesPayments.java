package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.outbox.Outbox;
import io.tender.processor.PaymentProcessors;
import io.tender.settlement.Settlement;
import io.tender.settlement.StaleWrite;
import io.tender.settlement.WaitingKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Payments' facade for the module that owns mandates and subscriptions (decisions §8): a subscription's charges of a
 * kept card without the customer, started several at a time ({@link #start}, in the caller's claiming transaction),
 * each sent through the settlement kernel ({@link #send}) and their answers written together ({@link #finishAll},
 * each period's fate decided by {@link ChargeOutcomes} in that transaction).
 */
@Service
public record SeriesPayments(Payments payments, SavedPaymentMethods methods, PaymentProcessors processors,
                             PaymentSettlement settlement, ChargeOutcomes outcomes, Outbox outbox,
                             WaitingKeys waitingKeys, PaymentViews views, TransactionTemplate tx) {

    private static final Logger log = LoggerFactory.getLogger(SeriesPayments.class);

    /**
     * A charge to start: the subscription's merchant, mode and customer, the saved method of its mandate, the
     * period's amount and currency, and the charge as its series names it.
     */
    public record Order(String merchantId, Mode mode, String customerId, String paymentMethodId, long amount,
                        String currency, SeriesCharge charge) {
    }

    /** A charge started: its payment, and where it stands ({@link #finished}: its answer is written and final). */
    public static final class Charge {
        private final PaymentSettlement.Run run;

        private Charge(PaymentSettlement.Run run) {
            this.run = run;
        }

        public String paymentId() {
            return run.payment.id();
        }

        /** The payment as the API shows it now ({@code pending} while an answer is unknown). */
        public PaymentView view() {
            return PaymentView.of(run.payment);
        }

        public boolean finished() {
            return run.payment.status().isFinal();
        }
    }

    /** The modes a processor is configured for: only their charges are started. */
    public List<Mode> modes() {
        return Arrays.stream(Mode.values()).filter(m -> processors.find(m).isPresent()).toList();
    }

    /** Which of these saved methods' cards can be charged again (their token is kept). */
    public Set<String> chargeable(Collection<String> paymentMethodIds) {
        return methods.keptByIds(paymentMethodIds).entrySet().stream().filter(e -> e.getValue().card().isPresent())
                .map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    /**
     * Records each order's payment pending, under the processor key its charge derives ({@code sub_…:3:charge}), in
     * the caller's transaction, under a lease that keeps the recovery job away while it is sent; one round trip for
     * all; call it inside that transaction. The orders' cards must be {@link #chargeable}.
     */
    public List<Charge> start(List<Order> orders, Instant recorded) {
        var kept = methods.keptByIds(orders.stream().map(Order::paymentMethodId).distinct().toList());
        List<Payment> started = new ArrayList<>(orders.size());
        List<Charge> charges = new ArrayList<>(orders.size());
        for (Order order : orders) {
            SavedPaymentMethods.Kept card = kept.get(order.paymentMethodId());
            Payment payment = Payment.charge(new Payment.Terms(order.merchantId(), order.mode(),
                            PaymentIntent.PAYMENT, CaptureMethod.AUTOMATIC, order.amount(), order.currency(),
                            "ZA", order.customerId(), null), null, card.method(), order.charge(), null, recorded);
            payment.beginAuthorization(recorded);
            started.add(payment);
            charges.add(new Charge(settlement.new Run(Caller.system(order.merchantId(), order.mode()), payment, null,
                    processors.forMode(order.mode()), card.card().orElseThrow())));
        }
        payments.insertAll(started, settlement.lease());
        return charges;
    }

    /**
     * Sends one charge through the kernel, with no transaction open: true when it settled (its answer is then written
     * with the others' by {@link #finishAll}); an unknown outcome is written at once, for the recovery job.
     */
    public boolean send(Charge charge) {
        try {
            if (settlement.settle(charge.run, Settlement.Mode.SEND)) {
                return true;
            }
            charge.run.save(null);
        } catch (StaleWrite e) {
            log.debug("{} was moved by another writer meanwhile", charge.paymentId());
        }
        return false;
    }

    /**
     * Writes several settled charges in one transaction, as {@link SettledCalls#finish} writes each: their series'
     * moves ({@link ChargeOutcomes}), the payments, their events and the Idempotency-Keys waiting on them, each table
     * in one round trip. The payments are locked first, after their series' rows; one that another writer moved since
     * it was read (the recovery job, after its lease ran out) is left out. Returns the charges written.
     */
    public List<Charge> finishAll(List<Charge> charges) {
        List<Charge> written = tx.execute(s -> {
            ChargeOutcomes.Locked locked = outcomes.lockAll(charges.stream().map(c -> c.run.payment.series()).toList());
            var revisions = payments.lockRevisions(charges.stream().map(Charge::paymentId).toList());
            List<Charge> current = new ArrayList<>(charges.size());
            for (Charge charge : charges) {
                if (Integer.valueOf(charge.run.payment.revision()).equals(revisions.get(charge.paymentId()))) {
                    current.add(charge);
                } else {
                    log.debug("{} was moved by another writer meanwhile", charge.paymentId());
                }
            }
            Map<String, ChargeOutcomes.Decided> decided = locked.settle(current.stream().filter(Charge::finished)
                    .map(c -> SettledCalls.ended(c.run.payment)).toList());
            List<Outbox.Owned> events = new ArrayList<>();
            for (Charge charge : current) {
                var decision = decided.getOrDefault(charge.paymentId(), ChargeOutcomes.Decided.NOTHING);
                if (decision.retry() != null) {
                    charge.run.payment.retried(decision.retry());
                }
                charge.run.events.addAll(decision.events());
            }
            payments.updateAll(current.stream().map(c -> c.run.payment).toList(), null);
            for (Charge charge : current) {
                charge.run.events.forEach(e -> events.add(new Outbox.Owned(charge.run.owner, e.get())));
                charge.run.events.clear();
            }
            outbox.appendAll(events);
            waitingKeys.completeAll(current.stream().map(c -> new WaitingKeys.Final(c.run.payment.merchantId(),
                    c.run.payment.mode().wire(), c.paymentId(), waiting -> views.answer(c.run.payment))).toList());
            return current;
        });
        return written == null ? List.of() : written;
    }
}
