package io.tender.billing;

import io.tender.api.Metadata;

import java.time.Instant;
import java.util.Map;

/** A merchant's customer; its balance is the obligation of the customer-balance usage model. */
record Customer(String id, String externalReference, String name, String email, String phone, RunningBalance ledger,
                Map<String, String> metadata, Instant createdAt, Instant updatedAt) implements BalanceObligation {

    /** A PATCH of decisions §4: balance replaced; name, email, phone, rules changed; metadata merged. */
    Customer patched(CustomerPatch patch, Instant now) {
        return new Customer(id, externalReference, patch.name() != null ? patch.name() : name,
                patch.email() != null ? patch.email() : email, Change.apply(patch.phone(), phone),
                ledger.patched(patch.ledger(), noun()), Metadata.merge(metadata, patch.metadata()), createdAt, now);
    }

    @Override
    public Customer applied(long amount, Instant at) {
        return new Customer(id, externalReference, name, email, phone, ledger.applied(amount), metadata,
                createdAt, at);
    }

    @Override
    public Customer reversed(long amount, Instant at) {
        return new Customer(id, externalReference, name, email, phone, ledger.reversed(amount), metadata,
                createdAt, at);
    }

    @Override
    public String customerId() {
        return id;
    }

    @Override
    public String accountId() {
        return null;
    }

    @Override
    public String noun() {
        return "customer";
    }
}
