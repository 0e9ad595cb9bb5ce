package io.tender.billing;

import io.tender.api.Metadata;

import java.time.Instant;
import java.util.Map;

/** An account under a customer; its balance is the obligation of the account-balance usage model. */
record Account(String id, String externalReference, String customerId, String name, RunningBalance ledger,
               Map<String, String> metadata, Instant createdAt, Instant updatedAt) implements BalanceObligation {

    /** A PATCH: replaces the balance of this account only; name and rules may change, metadata merges. */
    Account patched(AccountPatch patch, Instant now) {
        return new Account(id, externalReference, customerId, patch.name() != null ? patch.name() : name,
                ledger.patched(patch.ledger(), noun()), Metadata.merge(metadata, patch.metadata()), createdAt, now);
    }

    @Override
    public Account applied(long amount, Instant at) {
        return new Account(id, externalReference, customerId, name, ledger.applied(amount), metadata,
                createdAt, at);
    }

    @Override
    public Account reversed(long amount, Instant at) {
        return new Account(id, externalReference, customerId, name, ledger.reversed(amount), metadata,
                createdAt, at);
    }

    @Override
    public String accountId() {
        return id;
    }

    @Override
    public String noun() {
        return "account";
    }
}
