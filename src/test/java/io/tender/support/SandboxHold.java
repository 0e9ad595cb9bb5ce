package io.tender.support;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Holds back every test-mode redeem on one database while it is on: a SHARE lock on {@code sandbox_vouchers}, which
 * the sandbox providers write in every redeem, taken in a transaction of its own. A request that reaches the provider
 * waits there, mid-work (its Idempotency-Key claimed, its redemption begun), until {@link #release()}; reads and
 * requests that never reach the provider are not held. For proving that other requests arrived while one was running.
 */
public final class SandboxHold implements AutoCloseable {

    private final Connection connection;
    private boolean held;

    private SandboxHold(Connection connection) {
        this.connection = connection;
    }

    public static SandboxHold on(DataSource database) {
        try {
            Connection connection = database.getConnection();
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("lock table sandbox_vouchers in share mode");
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
