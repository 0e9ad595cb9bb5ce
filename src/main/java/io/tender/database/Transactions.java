package io.tender.database;

import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * What {@code @Transactional(propagation = MANDATORY)} checks, without a proxy around the method: the services run
 * their transactions through a {@code TransactionTemplate}, and the steps that must join their caller's say so here.
 */
public final class Transactions {

    private Transactions() {
    }

    /** Refuses unless a transaction is active, so that {@code work} never commits on its own. */
    public static void mandatory(String work) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalTransactionStateException(work + " runs in its caller's transaction");
        }
    }
}
