package io.tender.support;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Holds back every test-mode call of one kind on one database while it is on: a SHARE lock, taken in a transaction of
 * its own, on the sandbox's table that every such call writes. {@link #on} holds redeems at the sandbox providers
 * ({@code sandbox_vouchers}); {@link #onProcessor} holds calls at the sandbox payment processor
 * ({@code sandbox_processor_operations}, where it records each answer). A request that reaches the sandbox waits
 * there, mid-work (its Idempotency-Key claimed, its redemption or payment begun), until {@link #release()}; reads and
 * requests that never reach the sandbox are not held. For proving that other requests arrived while one was running.
 */
public final class SandboxHold implements AutoCloseable {

    private final Connection connection;
    private boolean held;

    private SandboxHold(Connection connection) {
        this.connection = connection;
    }

    /** Holds every redeem at the sandbox voucher providers. */
    public static SandboxHold on(DataSource database) {
        return holding(database, "sandbox_vouchers");
    }

    /** Holds every call the sandbox payment processor answers (an authorization, a charge of a kept card, a refund). */
    public static SandboxHold onProcessor(DataSource database) {
        return holding(database, "sandbox_processor_operations");
    }

    private static SandboxHold holding(DataSource database, String table) {
        try {
            Connection connection = database.getConnection();
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("lock table " + table + " in share mode");
            }
            SandboxHold hold = new SandboxHold(connection);
            hold.held = true;
            return hold;
        } catch (SQLException e) {
            throw new IllegalStateException("could not hold the sandbox", e);
        }
    }

    /** Lets the held requests go on. */
    public synchronized void release() {
        if (held) {
            held = false;
            try {
                connection.rollback();
            } catch (SQLException e) {
                throw new IllegalStateException("could not release the sandbox", e);
            }
        }
    }

    @Override
    public void close() {
        try (connection) {
            release();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
