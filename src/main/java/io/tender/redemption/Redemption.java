package io.tender.redemption;

import io.tender.settlement.CallStatus;
import io.tender.api.Ids;
import io.tender.auth.Mode;
import io.tender.provider.ChangeVoucher;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherSource;
import io.tender.settlement.OperationKeys;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The redemption aggregate. It owns its transitions and the version rule of decisions §2:
 * {@code version = 1 + succeeded operations}, and at least 2 once the redemption is final. Each transition
 * returns the event it causes, which the service writes in the same transaction as the new state.
 */
final class Redemption {

    /** A state change, named as the event it emits ({@code redemption.<name>}). */
    enum Transition {
        CREATED, RESERVED, CONFIRMED, FAILED, REVERSED;

        String eventType() {
            return "redemption." + name().toLowerCase();
        }
    }

    private final String id;
    private final String merchantId;
    private final Mode mode;
    private final RedemptionType type;
    private final VoucherSource source;
    private final Long requestedAmount;
    private final ObjectNode redemptionOptions;
    private final List<String> relatedIds;
    private final Map<String, String> metadata;
    private final String externalReference;
    private final String idempotencyKey;
    private final Instant createdAt;

    private RedemptionStatus status;
    private int version;
    private Long amount;
    private String currency;
    private Long reservedAmount;
    private Long redeemedAmount;
    private long reversedAmount;
    private Map<String, Object> providerReference;
    private final List<Operation> operations;
    private ChangeVoucher changeVoucher;
    private OperationError lastError;
    private Instant updatedAt;
    private int revision;

    Redemption(String id, String merchantId, Mode mode, RedemptionType type, VoucherSource source, Long requestedAmount,
               ObjectNode redemptionOptions, List<String> relatedIds, Map<String, String> metadata,
               String externalReference, String idempotencyKey, Instant createdAt, RedemptionStatus status,
               int version, Long amount, String currency, Long reservedAmount, Long redeemedAmount,
               long reversedAmount, Map<String, Object> providerReference, List<Operation> operations,
               ChangeVoucher changeVoucher, OperationError lastError, Instant updatedAt, int revision) {
        this.id = id;
        this.merchantId = merchantId;
        this.mode = mode;
        this.type = type;
        this.source = source;
        this.requestedAmount = requestedAmount;
        this.redemptionOptions = redemptionOptions;
        this.relatedIds = List.copyOf(relatedIds);
        this.metadata = metadata;
        this.externalReference = externalReference;
        this.idempotencyKey = idempotencyKey;
        this.createdAt = createdAt;
        this.status = status;
        this.version = version;
        this.amount = amount;
        this.currency = currency;
        this.reservedAmount = reservedAmount;
        this.redeemedAmount = redeemedAmount;
        this.reversedAmount = reversedAmount;
        this.providerReference = providerReference;
        this.operations = new ArrayList<>(operations);
        this.changeVoucher = changeVoucher;
        this.lastError = lastError;
        this.updatedAt = updatedAt;
        this.revision = revision;
    }

    /** A new redemption in {@code draft}, version 1. Without a requested currency, the provider's native one. */
    static Redemption open(String id, String merchantId, Mode mode, NewRedemption request, String defaultCurrency,
                           String idempotencyKey, Instant now) {
        return new Redemption(id, merchantId, mode, request.type(), request.source(), request.amount(),
                request.redemptionOptions(), request.relatedIds(), request.metadata(), request.externalReference(),
                idempotencyKey, now, RedemptionStatus.DRAFT, 1, request.amount(),
                request.currency() != null ? request.currency() : defaultCurrency, null, null, 0, null, List.of(),
                null, null, now, 0);
    }

    /** Records that a provider call is about to be made; its key is derived from this redemption and operation. */
    Operation begin(Operation.Type operationType, long operationAmount, Instant now) {
        return add(operationType, operationAmount, null, now);
    }

    /** Records that the operation with {@code reversedKey} is about to be given back. */
    Operation beginReversal(String reversedKey, long operationAmount, Instant now) {
        return add(Operation.Type.REVERSE, operationAmount, reversedKey, now);
    }

    private Operation add(Operation.Type operationType, long operationAmount, String reverses, Instant now) {
        if (pending().isPresent()) {
            throw new IllegalStateException("an operation is already pending on " + id);
        }
        if (status.isFinal()) {
            throw new IllegalStateException("redemption " + id + " is " + status.wire());
        }
        long sameType = operations.stream().filter(o -> o.type() == operationType).count();
        String key = OperationKeys.of(id, operationType.wire(), sameType);
        Operation operation = new Operation(Ids.newId("op_"), operationType, CallStatus.PENDING,
                operationAmount, null, null, now, key, reverses);
        operations.add(operation);
        updatedAt = now;
        return operation;
    }

    /**
     * Gives up on a pending operation whose outcome stayed unknown: it is recorded as failed with a transport
     * error and a reversal of it begins, so that whatever it may have moved is given back before the redemption
     * is reported failed.
     */
    Operation abandon(Instant now) {
        Operation operation = pending().orElseThrow(() -> new IllegalStateException("nothing pending on " + id));
        OperationError error = new OperationError(type.errorCode("transport_error"),
                "The provider gave no definite answer; the operation was reversed");
        operations.set(operations.indexOf(operation),
                operation.settled(CallStatus.FAILED, operation.amount(), null, error));
        lastError = error;
        return beginReversal(operation.providerKey(), operation.amount(), now);
    }

    /**
     * Gives the pending operation a fresh provider key: the provider never received it under the old one, and
     * that key is fenced at the provider since we asked after it.
     */
    void reissuePending(Instant now) {
        Operation operation = pending().orElseThrow(() -> new IllegalStateException("nothing pending on " + id));
        long ofType = operations.stream().filter(o -> o.type() == operation.type()).count();
        operations.set(operations.indexOf(operation), new Operation(operation.id(), operation.type(),
                operation.status(), operation.amount(), null, null, operation.createdAt(),
                OperationKeys.reissued(operation.providerKey(), ofType), operation.reverses()));
        updatedAt = now;
    }

    /** Whether a reversal was ever begun: after one, the redemption is never moved forward again. */
    boolean reversalAttempted() {
        return operations.stream().anyMatch(o -> o.type() == Operation.Type.REVERSE);
    }

    /** The reservation a confirm or a reversal of a held redemption refers to. */
    Optional<Operation> reservation() {
        return operations.stream()
                .filter(o -> o.type() == Operation.Type.RESERVE && o.status() == CallStatus.SUCCEEDED)
                .findFirst();
    }

    /** The operation not settled yet (pending or unknown), if any. */
    Optional<Operation> pending() {
        return operations.stream().filter(o -> o.status().open()).findFirst();
    }

    /**
     * Records that the pending call went out and its outcome stayed unknown, even after asking: value may have
     * moved, and only the provider's status answer (or a reversal) settles it.
     */
    void markUnknown(Instant now) {
        Operation operation = pending().orElseThrow(() -> new IllegalStateException("nothing pending on " + id));
        operations.set(operations.indexOf(operation), new Operation(operation.id(), operation.type(),
                CallStatus.UNKNOWN, operation.amount(), operation.providerReference(), operation.error(),
                operation.createdAt(), operation.providerKey(), operation.reverses()));
        updatedAt = now;
    }

    /**
     * Applies the provider's definite answer to the pending operation and returns the transition it caused, or
     * null when the status did not change (a refused reversal of a hold). An {@link ProviderOutcome.Unknown} answer
     * is not accepted here: it has to be resolved first, since value may have moved.
     */
    Transition settle(ProviderOutcome outcome, Instant now) {
        Operation operation = pending().orElseThrow(() -> new IllegalStateException("nothing pending on " + id));
        int index = operations.indexOf(operation);
        updatedAt = now;
        Transition transition = switch (outcome) {
            case ProviderOutcome.Approved approved -> {
                operations.set(index, operation.settled(CallStatus.SUCCEEDED, approved.amount(),
                        approved.reference(), null));
                if (operation.type() != Operation.Type.REVERSE) {
                    providerReference = approved.reference();
                }
                yield switch (operation.type()) {
                    case RESERVE -> {
                        amount = approved.amount();
                        currency = approved.currency();
                        reservedAmount = approved.amount();
                        status = RedemptionStatus.RESERVED;
                        yield Transition.RESERVED;
                    }
                    case CONFIRM -> {
                        amount = amount == null || reservedAmount == null ? approved.amount() : amount;
                        currency = approved.currency();
                        redeemedAmount = approved.amount();
                        changeVoucher = approved.changeVoucher();
                        status = RedemptionStatus.CONFIRMED;
                        yield Transition.CONFIRMED;
                    }
                    case REVERSE -> {
                        // Nothing was redeemed: a released hold, or an abandoned operation given back.
                        reversedAmount += approved.amount();
                        status = RedemptionStatus.FAILED;
                        yield lastError == null ? Transition.REVERSED : Transition.FAILED;
                    }
                };
            }
            case ProviderOutcome.Declined declined -> {
                OperationError error = new OperationError(declined.errorCode(), declined.message());
                operations.set(index, operation.settled(CallStatus.FAILED, operation.amount(), null, error));
                lastError = error;
                if (operation.type() == Operation.Type.REVERSE) {
                    // The hold (or whatever the abandoned call did) stays where it is; the status does not change.
                    yield null;
                }
                status = RedemptionStatus.FAILED;
                yield Transition.FAILED;
            }
            case ProviderOutcome.Unknown unknown ->
                    throw new IllegalStateException("an unknown outcome must be resolved before it is recorded");
        };
        long succeeded = operations.stream().filter(o -> o.status() == CallStatus.SUCCEEDED).count();
        version = (int) Math.max(1 + succeeded, status.isFinal() ? 2 : 1);
        return transition;
    }

    /** Called by the repository after a successful conditional write. */
    void written() {
        revision++;
    }

    String id() { return id; }
    String merchantId() { return merchantId; }
    Mode mode() { return mode; }
    RedemptionType type() { return type; }
    VoucherSource source() { return source; }
    Long requestedAmount() { return requestedAmount; }
    ObjectNode redemptionOptions() { return redemptionOptions; }
    List<String> relatedIds() { return relatedIds; }
    Map<String, String> metadata() { return metadata; }
    String externalReference() { return externalReference; }
    String idempotencyKey() { return idempotencyKey; }
    Instant createdAt() { return createdAt; }
    RedemptionStatus status() { return status; }
    int version() { return version; }
    /** The resolved amount; before the provider resolved it, the requested one, or 0 when none was requested. */
    long amount() { return amount != null ? amount : requestedAmount != null ? requestedAmount : 0; }
    String currency() { return currency; }
    Long reservedAmount() { return reservedAmount; }
    Long redeemedAmount() { return redeemedAmount; }
    long reversedAmount() { return reversedAmount; }
    Map<String, Object> providerReference() { return providerReference; }
    List<Operation> operations() { return List.copyOf(operations); }
    ChangeVoucher changeVoucher() { return changeVoucher; }
    OperationError lastError() { return lastError; }
    Instant updatedAt() { return updatedAt; }
    int revision() { return revision; }
    Long resolvedAmount() { return amount; }
}
