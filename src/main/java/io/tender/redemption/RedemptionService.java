package io.tender.redemption;

import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.database.Statement;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.KeyedRequest;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.ProviderText;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherProviders;
import io.tender.settlement.PendingCall;
import io.tender.settlement.Settlement;
import io.tender.settlement.StaleWrite;
import io.tender.settlement.WaitingKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves redemptions through atomic phases (in the spirit of Stripe's idempotency keys on Postgres):
 * <ol>
 *   <li>one transaction claims the Idempotency-Key and records the next provider call as a pending operation (for a
 *       create: inserts the redemption in {@code draft} and writes {@code redemption.created});</li>
 *   <li>the provider is called with no transaction open;</li>
 *   <li>one transaction records the answer and its event, and either marks the next call pending or, on the last
 *       step, stores the response under the Idempotency-Key.</li>
 * </ol>
 * A crash between phases leaves a pending operation with a known provider key, which {@link RedemptionRecovery}
 * finishes. An answer that stays unknown after asking the provider for the call's status is never reported as
 * a decline: the request answers 504 and the recovery job resolves the redemption.
 * <p>
 * On a provider without holds, the reserve's answer and the confirm that follows it are not committed in between:
 * the confirm goes out at once, under its key derived from the redemption ({@code <id>:confirm}), and one
 * transaction records both answers with both events. A crash in between leaves the reserve pending; the recovery
 * job resolves it, and before it confirms it asks for the confirm's status, since the confirm may already have
 * been sent (docs/PERFORMANCE.md, "One commit fewer per redemption").
 * <p>
 * The money-safety rules themselves (recording a call before sending it, resolving unknown outcomes by status, fenced
 * keys, leases, completing waiting keys) are the {@code settlement} kernel's, shared with payments. This class knows
 * no HTTP: the controller and the recovery job call its commands.
 */
@Service
record RedemptionService(Redemptions redemptions, IdempotencyKeys keys, IdempotentRequests idempotent,
                         WaitingKeys waitingKeys, Outbox outbox, VoucherProviders providers, TransactionTemplate tx,
                         JsonMapper json, RedemptionSettings settings) {

    private static final Logger log = LoggerFactory.getLogger(RedemptionService.class);
    static final String AGGREGATE = "collect.redemption";

    /** A redemption being moved by one writer, with the events of its transitions not written yet. */
    private final class Run {
        final Caller owner;
        final Redemption redemption;
        final VoucherProvider provider;
        final List<Outbox.Event> events = new ArrayList<>();

        Run(Caller owner, Redemption redemption, VoucherProvider provider) {
            this.owner = owner;
            this.redemption = redemption;
            this.provider = provider;
        }

        void record(Redemption.Transition transition) {
            if (transition != null) {
                events.add(new Outbox.Event(AGGREGATE, redemption.id(), transition.eventType(), redemption.updatedAt(),
                        json.writeValueAsBytes(RedemptionView.of(redemption, true))));
            }
        }

        /**
         * Writes the redemption, its events and {@code more} in one round trip; the caller runs this inside a
         * transaction.
         */
        void write(Duration leaseFor, Statement... more) {
            List<Statement> with = new ArrayList<>(appendings());
            with.addAll(List.of(more));
            redemptions.update(redemption, leaseFor, with);
            events.clear();
        }

        /** The statements that append the events recorded so far. */
        List<Statement> appendings() {
            return events.stream().map(e -> outbox.appending(owner, e).statement()).toList();
        }

        void save(Duration leaseFor) {
            tx.executeWithoutResult(s -> write(leaseFor));
        }
    }

    StoredResponse create(Caller caller, KeyedRequest request, NewRedemption command) {
        VoucherProvider provider = providers.forMode(caller.mode(), command.type());
        var capabilities = provider.capabilities();
        String key = request.key();
        Redemption redemption = Redemption.open(Ids.newId("rdm_"), caller.merchantId(), caller.mode(), command,
                capabilities.defaultCurrency(), key, Timestamps.now());
        Run run = new Run(caller, redemption, provider);
        run.record(Redemption.Transition.CREATED);
        // A stated amount on a provider without holds is one redeem call (a "partial redeem", docs/DECISIONS.md);
        // otherwise reserve first: the amount, or the voucher's full value, which the provider then resolves.
        if (command.amount() != null && !capabilities.hold()) {
            redemption.begin(Operation.Type.CONFIRM, command.amount(), Timestamps.now());
        } else {
            redemption.begin(Operation.Type.RESERVE, command.amount() == null ? 0 : command.amount(), Timestamps.now());
        }
        var start = idempotent.start(caller, request, redemption.id(), () -> {
            redemptions.insert(redemption, settings.lease(), run.appendings());
            run.events.clear();
            return redemption;
        });
        if (start instanceof IdempotentRequests.Start.Answered<Redemption>(StoredResponse response, var refusal)) {
            return response;
        }
        return finish(run, key, 201);
    }

    /** Captures a held redemption ({@code reserved} on a provider with holds), all of it or {@code amount}. */
    StoredResponse confirm(Caller caller, String id, KeyedRequest request, Integer ifMatch, Long amount) {
        return act(caller, id, request, ifMatch, redemption -> {
            Operation reservation = redemption.reservation().orElseThrow();
            long captured = amount == null ? reservation.amount() : amount;
            if (captured > reservation.amount()) {
                throw new RedemptionRejection.AboveReserved(captured, reservation.amount()).thrown();
            }
            redemption.begin(Operation.Type.CONFIRM, captured, Timestamps.now());
        });
    }

    /** Releases a held redemption; it ends {@code failed} with {@code reversed_amount} (nothing was redeemed). */
    StoredResponse reverse(Caller caller, String id, KeyedRequest request, Integer ifMatch) {
        return act(caller, id, request, ifMatch, redemption -> {
            Operation reservation = redemption.reservation().orElseThrow();
            redemption.beginReversal(reservation.providerKey(), reservation.amount(), Timestamps.now());
        });
    }

    private StoredResponse act(Caller caller, String id, KeyedRequest request, Integer ifMatch,
                               java.util.function.Consumer<Redemption> begin) {
        String key = request.key();
        var start = idempotent.start(caller, request, id, () -> {
            Redemption redemption = redemptions.get(caller, id);
            if (ifMatch != null && ifMatch != redemption.version()) {
                throw new RedemptionRejection.VersionMismatch(redemption.version(), ifMatch).thrown();
            }
            if (redemption.status() != RedemptionStatus.RESERVED || redemption.pending().isPresent()) {
                throw new RedemptionRejection.NotAwaitingClient(redemption.status().wire()).thrown();
            }
            VoucherProvider provider = providers.forMode(caller.mode(), redemption.type());
            begin.accept(redemption);
            try {
                redemptions.update(redemption, settings.lease(), List.of());
            } catch (StaleWrite e) {
                throw new RedemptionRejection.ChangedConcurrently().thrown();
            }
            return new Run(caller, redemption, provider);
        });
        if (start instanceof IdempotentRequests.Start.Answered<Run>(StoredResponse response, var refusal)) {
            return response;
        }
        return finish(((IdempotentRequests.Start.Running<Run>) start).value(), key, 200);
    }

    /**
     * Calls the provider for the pending operation, then for the next one a hold-less provider needs, and writes
     * the final state with the response under the key. An outcome that stays unknown ends the request with 504.
     */
    private StoredResponse finish(Run run, String key, int status) {
        Redemption redemption = run.redemption;
        if (!settle(run, false, false)) {
            // The unknown call is written as such (with, after a hold-less reserve, the reserve's answer and event).
            run.save(null);
            throw new RedemptionRejection.OutcomeUnknown(redemption.id()).thrown();
        }
        if (redemption.status() == RedemptionStatus.RESERVED && !run.provider.capabilities().hold()) {
            // Confirm at once; the reserve's answer is written with the confirm's (see the class comment).
            redemption.begin(Operation.Type.CONFIRM, redemption.reservedAmount(), Timestamps.now());
            return finish(run, key, status);
        }
        StoredResponse response = StoredResponse.json(status, json.writeValueAsBytes(RedemptionView.of(redemption, false)));
        // The final state, its events and the stored response: one round trip, then the commit.
        tx.executeWithoutResult(s -> {
            if (key != null) {
                run.write(null, keys.completing(run.owner, key, response));
            } else {
                run.write(null);
            }
        });
        return response;
    }

    /**
     * Drives the pending operation to a definite outcome through the kernel ({@link Settlement}) and records it (in
     * memory; the caller writes it). {@code askFirst}: the call may have been sent before (recovery), so ask for its
     * status instead of sending it. {@code stillWanted}: if the provider never received it, the call is still to be
     * made (a confirm that a crashed request may or may not have sent), rather than settled as not having happened.
     * A reversal that did not get through has not happened: it stays pending. Returns false when the call is not
     * settled: recorded {@code UNKNOWN} (it went out without a definite answer) or still pending (a reversal that did
     * not arrive); the caller writes the redemption either way.
     */
    private boolean settle(Run run, boolean askFirst, boolean stillWanted) {
        Redemption redemption = run.redemption;
        boolean reversal = redemption.pending().orElseThrow().type() == Operation.Type.REVERSE;
        Operation operation = redemption.pending().orElseThrow();
        return switch (Settlement.resolve(new ProviderCall(run), new Settlement.Mode(askFirst, stillWanted, reversal))) {
            case Settlement.Resolution.Settled<ProviderOutcome>(ProviderOutcome outcome) -> {
                run.record(redemption.settle(outcome, Timestamps.now()));
                yield true;
            }
            case Settlement.Resolution.Unknown<ProviderOutcome> unknown -> {
                log.warn("Outcome of {} on {} is unknown; the recovery job will ask after it", operation.type().wire(),
                        redemption.id());
                redemption.markUnknown(Timestamps.now());
                yield false;
            }
            case Settlement.Resolution.NotArrived<ProviderOutcome> notArrived -> {
                log.warn("Reversal on {} did not reach the provider; it stays pending", redemption.id());
                yield false;
            }
        };
    }

    /** The redemption's pending provider call, as the kernel drives it. */
    private final class ProviderCall implements PendingCall<ProviderOutcome> {
        private final Run run;

        ProviderCall(Run run) {
            this.run = run;
        }

        @Override
        public ProviderOutcome send() {
            return RedemptionService.send(run, run.redemption.pending().orElseThrow());
        }

        @Override
        public ProviderOutcome status() {
            return RedemptionService.status(run, run.redemption.pending().orElseThrow());
        }

        @Override
        public Verdict classify(ProviderOutcome outcome) {
            return switch (outcome) {
                case ProviderOutcome.Unknown u -> Verdict.UNKNOWN;
                case ProviderOutcome.Declined d when neverReceived(d, run.redemption) -> Verdict.NEVER_RECEIVED;
                default -> Verdict.DEFINITE;
            };
        }

        @Override
        public void reissue() {
            run.redemption.reissuePending(Timestamps.now());
            run.save(settings.lease());
        }
    }

    /** The protocol's answer to a status query for a call the provider never received. */
    private static boolean neverReceived(ProviderOutcome outcome, Redemption redemption) {
        return outcome instanceof ProviderOutcome.Declined d
                && d.errorCode().equals(redemption.type().errorCode("transport_error"));
    }

    /** The provider's word on an earlier call, its texts stripped of the voucher secret (decisions §9). */
    private static ProviderOutcome status(Run run, Operation operation) {
        return ProviderText.redacted(run.provider.status(operation.providerKey()), run.redemption.source());
    }

    /**
     * Sends the operation; the answer's texts are stripped of the voucher secret (decisions §9) before anything
     * records, logs or shows them.
     */
    private static ProviderOutcome send(Run run, Operation operation) {
        return ProviderText.redacted(call(run, operation), run.redemption.source());
    }

    private static ProviderOutcome call(Run run, Operation operation) {
        Redemption r = run.redemption;
        return switch (operation.type()) {
            case RESERVE -> run.provider.reserve(new VoucherProvider.Reserve(operation.providerKey(), r.source(),
                    r.requestedAmount(), r.currency(), r.redemptionOptions()));
            case CONFIRM -> run.provider.confirm(new VoucherProvider.Confirm(operation.providerKey(), r.source(),
                    operation.amount(), r.currency(), r.reservation().map(Operation::providerKey).orElse(null),
                    r.redemptionOptions()));
            case REVERSE -> run.provider.reverse(new VoucherProvider.Reverse(operation.providerKey(), r.source(),
                    operation.amount(), r.currency(), operation.reverses(), r.redemptionOptions()));
        };
    }

    /**
     * Finishes a redemption a crash or a lost answer left unfinished (called by the recovery job, which holds its
     * lease). A pending call is resolved by asking the provider, never by sending it again; a hold-less redemption
     * whose reserve went through is confirmed, as the client asked; a call unknown for longer than
     * {@code giveUpBefore} allows is reversed; a hold older than its time to live is released. When the redemption
     * is final, every Idempotency-Key still waiting on it is completed with its final response.
     */
    void recover(Redemption redemption, Instant giveUpBefore, Instant reservationsBefore) {
        var provider = providers.find(redemption.mode(), redemption.type());
        if (provider.isEmpty()) {
            log.warn("Cannot recover {}: no {} provider for {} mode", redemption.id(), redemption.type().wire(),
                    redemption.mode().wire());
            redemptions.release(redemption);
            return;
        }
        Run run = new Run(Caller.system(redemption.merchantId(), redemption.mode()), redemption, provider.get());
        boolean hold = provider.get().capabilities().hold();
        // A call that was pending when the redemption was taken may have been sent already: ask after it.
        boolean askFirst = redemption.pending().isPresent();
        boolean stillWanted = false;
        while (true) {
            var pending = redemption.pending();
            if (pending.isPresent()) {
                boolean resolved = settle(run, askFirst, stillWanted);
                askFirst = false;
                stillWanted = false;
                if (!resolved) {
                    if (pending.get().type() != Operation.Type.REVERSE && redemption.createdAt().isBefore(giveUpBefore)) {
                        log.warn("Giving up on the unknown outcome of {} on {}; reversing it",
                                pending.get().type().wire(), redemption.id());
                        redemption.abandon(Timestamps.now());
                        run.save(settings.lease());
                        continue;
                    }
                    run.save(null);
                    return;
                }
                if (redemption.status().isFinal()) {
                    break;
                }
                run.save(settings.lease());
            } else if (redemption.status() == RedemptionStatus.RESERVED && !hold && !redemption.reversalAttempted()) {
                // The client asked for a redemption and the reserve went through: finish what was asked. The
                // request may have sent this confirm before it died (it does not write the confirm before sending
                // it), so ask after it first; the provider is never sent one key twice.
                redemption.begin(Operation.Type.CONFIRM, redemption.reservedAmount(), Timestamps.now());
                run.save(settings.lease());
                askFirst = true;
                stillWanted = true;
            } else if (redemption.status() == RedemptionStatus.RESERVED && hold && !redemption.reversalAttempted()
                    && redemption.updatedAt().isBefore(reservationsBefore)) {
                log.info("Releasing the expired hold of {}", redemption.id());
                Operation reservation = redemption.reservation().orElseThrow();
                redemption.beginReversal(reservation.providerKey(), reservation.amount(), Timestamps.now());
                run.save(settings.lease());
            } else {
                break;
            }
        }
        if (redemption.status().isFinal()) {
            // The final state and the answers of the requests that never got one commit together.
            byte[] view = json.writeValueAsBytes(RedemptionView.of(redemption, false));
            tx.executeWithoutResult(s -> {
                run.write(null);
                completeWaitingKeys(redemption, view);
            });
            log.info("Recovered {}: {}", redemption.id(), redemption.status().wire());
            return;
        }
        redemptions.release(redemption);
        if (redemption.reversalAttempted()) {
            log.error("The provider refused to reverse an operation of {}, whose outcome is unknown: an operator "
                    + "must reconcile it with the provider", redemption.id());
        }
    }

    /** Completes the keys of requests that never got their answer, so that their retries replay the final state. */
    private void completeWaitingKeys(Redemption redemption, byte[] view) {
        waitingKeys.complete(redemption.merchantId(), redemption.mode().wire(), redemption.id(), waiting -> {
            int status = waiting.path().endsWith("/confirm") || waiting.path().endsWith("/reverse") ? 200 : 201;
            return StoredResponse.json(status, view);
        });
    }

    /** Reads show {@code change_voucher.pin} masked: only the call that made it, and its replay, show it in full. */
    RedemptionView get(Caller caller, String id) {
        return RedemptionView.of(redemptions.get(caller, id), true);
    }

    ListPage<RedemptionView> list(Caller caller, ListQuery query, String status, String type, String externalReference) {
        return ListPage.of(redemptions.list(caller, query, status, type, externalReference), query.limit(),
                Redemption::id, r -> RedemptionView.of(r, true));
    }
}
