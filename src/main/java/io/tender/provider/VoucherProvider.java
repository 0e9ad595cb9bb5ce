package io.tender.provider;

import tools.jackson.databind.node.ObjectNode;

/**
 * A voucher provider, as the redemption service sees it. Every call carries an {@code operationKey} that is unique
 * per redemption and operation and the same on every retry of that operation, so the provider can deduplicate and
 * a repeated call cannot move value twice. Implementations never throw for provider behaviour: every answer,
 * including garbage and silence, becomes a {@link ProviderOutcome}.
 */
public interface VoucherProvider {

    RedemptionType type();

    ProviderCapabilities capabilities();

    /** Holds {@code amount} (or, when null, the voucher's full value, which the answer then carries). */
    ProviderOutcome reserve(Reserve call);

    /**
     * Captures a reservation ({@code reservationKey} set), or, without one, redeems {@code amount} in one step and
     * issues a change voucher for any remainder.
     */
    ProviderOutcome confirm(Confirm call);

    /** Gives back what an earlier reserve or confirm took. */
    ProviderOutcome reverse(Reverse call);

    /** The voucher's balance, without changing it. */
    Lookup lookup(VoucherSource source);

    /** What became of an earlier call, by its operation key; {@link ProviderOutcome.Unknown} if the provider cannot say. */
    ProviderOutcome status(String operationKey);

    record Reserve(String operationKey, VoucherSource source, Long amount, String currency, ObjectNode options) {
    }

    record Confirm(String operationKey, VoucherSource source, long amount, String currency, String reservationKey,
                   ObjectNode options) {
    }

    record Reverse(String operationKey, VoucherSource source, long amount, String currency, String reversedKey,
                   ObjectNode options) {
    }

    /** A balance lookup's answer. */
    sealed interface Lookup {
        record Balance(long balance, String currency, java.util.Map<String, Object> metadata) implements Lookup {
        }

        record Refused(String errorCode, String message) implements Lookup {
        }
    }
}
