package io.tender.redemption;

import io.tender.api.ApiException;
import io.tender.api.Ids;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.ProblemCode;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotencyKeys;
import io.tender.idempotency.RequestFingerprint;
import io.tender.idempotency.StoredResponse;
import io.tender.outbox.Outbox;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherProviders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a redemption through atomic phases (in the spirit of Stripe's idempotency keys on Postgres):
 * <ol>
 *   <li>one transaction claims the Idempotency-Key, inserts the redemption in {@code draft} with its first operation
 *       marked pending, and writes {@code redemption.created};</li>
 *   <li>the provider is called with no transaction open;</li>
 *   <li>one transaction records the answer and its event, and marks the next operation pending (or, on the last
 *       step, stores the response under the Idempotency-Key).</li>
 * </ol>
 * A crash between phases leaves a pending operation whose provider key is known, which the recovery job finishes.
 */
@Service
class RedemptionService {

    private static final Logger log = LoggerFactory.getLogger(RedemptionService.class);
    static final String AGGREGATE = "collect.redemption";

    private final Redemptions redemptions;
    private final IdempotencyKeys keys;
    private final Outbox outbox;
    private final VoucherProviders providers;
    private final TransactionTemplate tx;
    private final JsonMapper json;
    private final Duration lease;

    RedemptionService(Redemptions redemptions, IdempotencyKeys keys, Outbox outbox, VoucherProviders providers,
                      TransactionTemplate tx, JsonMapper json,
                      @Value("${tender.redemptions.lease:PT2M}") Duration lease) {
        this.redemptions = redemptions;
        this.keys = keys;
        this.outbox = outbox;
        this.providers = providers;
        this.tx = tx;
        this.json = json;
        this.lease = lease;
    }

    StoredResponse create(Caller caller, String idempotencyKey, RequestFingerprint fingerprint, NewRedemption request) {
        VoucherProvider provider = providers.forMode(caller.mode(), request.type());
        var capabilities = provider.capabilities();
        Redemption redemption = Redemption.open(Ids.newId("rdm_"), caller.merchantId(), caller.mode(), request,
                capabilities.defaultCurrency(), idempotencyKey, Timestamps.now());
        List<Outbox.Event> events = new ArrayList<>();
        events.add(event(redemption, Redemption.Transition.CREATED));
        // A stated amount on a provider without holds is one redeem call (a "partial redeem", decisions §2);
        // otherwise reserve first: the amount, or the voucher's full value, which the provider then resolves.
        boolean oneStep = request.amount() != null && !capabilities.hold();
        if (oneStep) {
            redemption.begin(Operation.Type.CONFIRM, request.amount(), Timestamps.now());
        } else {
            redemption.begin(Operation.Type.RESERVE, request.amount() == null ? 0 : request.amount(), Timestamps.now());
        }

        Optional<StoredResponse> replay = tx.execute(s -> {
            if (idempotencyKey != null) {
                var earlier = IdempotencyKeys.replayOrThrow(keys.claim(caller, idempotencyKey, fingerprint, redemption.id()));
                if (earlier.isPresent()) {
                    return earlier;
                }
            }
            redemptions.insert(redemption, lease);
            write(caller, events);
            return Optional.<StoredResponse>empty();
        });
        if (replay.isPresent()) {
            return replay.get();
        }
        events.clear();

        ProviderOutcome outcome = call(provider, redemption);
        events.add(event(redemption, redemption.settle(outcome, Timestamps.now())));
        if (redemption.status() == RedemptionStatus.RESERVED && !capabilities.hold()) {
            redemption.begin(Operation.Type.CONFIRM, redemption.reservedAmount(), Timestamps.now());
            tx.executeWithoutResult(s -> {
                redemptions.update(redemption, lease);
                write(caller, events);
            });
            events.clear();
            outcome = call(provider, redemption);
            events.add(event(redemption, redemption.settle(outcome, Timestamps.now())));
        }

        StoredResponse response = StoredResponse.json(201, json.writeValueAsBytes(RedemptionView.of(redemption, false)));
        tx.executeWithoutResult(s -> {
            redemptions.update(redemption, null);
            write(caller, events);
            if (idempotencyKey != null) {
                keys.complete(caller, idempotencyKey, response);
            }
        });
        return response;
    }

    RedemptionView get(Caller caller, String id) {
        return RedemptionView.of(redemptions.get(caller, id), false);
    }

    ListPage<RedemptionView> list(Caller caller, ListQuery query, String status, String type, String externalReference) {
        return ListPage.of(redemptions.list(caller, query, status, type, externalReference), query.limit(),
                Redemption::id, r -> RedemptionView.of(r, false));
    }

    /**
     * Calls the provider for the pending operation. An unknown answer is asked after once by status; if it stays
     * unknown, the redemption is left pending for the recovery job and the client is told to come back.
     */
    private ProviderOutcome call(VoucherProvider provider, Redemption redemption) {
        Operation operation = redemption.pending().orElseThrow();
        ProviderOutcome outcome = switch (operation.type()) {
            case RESERVE -> provider.reserve(new VoucherProvider.Reserve(operation.providerKey(), redemption.source(),
                    redemption.requestedAmount(), redemption.currency(), redemption.redemptionOptions()));
            case CONFIRM -> provider.confirm(new VoucherProvider.Confirm(operation.providerKey(), redemption.source(),
                    operation.amount(), redemption.currency(), reservationKey(redemption), redemption.redemptionOptions()));
            case REVERSE -> throw new IllegalStateException("reversals are not started by create");
        };
        if (outcome instanceof ProviderOutcome.Unknown) {
            outcome = provider.status(operation.providerKey());
        }
        if (outcome instanceof ProviderOutcome.Unknown unknown) {
            log.warn("Provider outcome of {} on {} is unknown ({}); left for recovery", operation.type().wire(),
                    redemption.id(), unknown.errorCode());
            throw new ApiException(ProblemCode.REQUEST_TIMEOUT, "The provider did not give a definite answer. "
                    + "Redemption " + redemption.id() + " will be resolved; retry with the same Idempotency-Key, "
                    + "or retrieve it, to see its final state.");
        }
        return outcome;
    }

    private static String reservationKey(Redemption redemption) {
        return redemption.operations().stream()
                .filter(o -> o.type() == Operation.Type.RESERVE && o.status() == Operation.Status.SUCCEEDED)
                .map(Operation::providerKey).findFirst().orElse(null);
    }

    private Outbox.Event event(Redemption redemption, Redemption.Transition transition) {
        return new Outbox.Event(AGGREGATE, redemption.id(), transition.eventType(), redemption.updatedAt(),
                json.writeValueAsBytes(RedemptionView.of(redemption, true)));
    }

    private void write(Caller caller, List<Outbox.Event> events) {
        events.forEach(e -> outbox.append(caller, e));
    }
}
