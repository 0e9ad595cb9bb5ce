package io.tender.database;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * Sends several statements to PostgreSQL in one round trip. The driver (pgjdbc) sends a query text holding several
 * statements as one message train ending in one Sync; PostgreSQL runs them in order, each with its own snapshot, and
 * the first error skips the rest. So statements whose results the caller does not need before the next ones (writes,
 * a lock followed by the reads it guards) cost one wait for the database instead of one each
 * (docs/PERFORMANCE.md, "Round trips").
 */
@Component
public class RoundTrips {

    private final JdbcTemplate jdbc;
    private final DataSource dataSource;

    RoundTrips(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.dataSource = java.util.Objects.requireNonNull(jdbc.getDataSource());
    }

    /** Sends the statements in one round trip, in the current transaction (which must be active). */
    public Answers send(Statement... statements) {
        return send(List.of(statements));
    }

    /** Sends the statements in one round trip, in the current transaction (which must be active). */
    public Answers send(List<Statement> statements) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("RoundTrips.send needs a transaction");
        }
        return jdbc.execute(text(statements), (PreparedStatementCallback<Answers>) ps -> run(ps, statements));
    }

    /**
     * Runs {@code work} in a transaction of its own, on a connection of its own (even under a caller's transaction,
     * like {@code REQUIRES_NEW}), whose {@code begin} travels with its first round trip and whose {@code commit}
     * with its last ({@link Transaction#commit}): a transaction of two statements costs two round trips, not four.
     * The transaction rolls back if {@code work} throws or returns without committing.
     */
    public <T> T transaction(Function<Transaction, T> work) {
        try (Connection connection = dataSource.getConnection()) {
            if (!connection.getAutoCommit()) {
                throw new IllegalStateException("RoundTrips.transaction needs a connection in autocommit mode");
            }
            Transaction transaction = new Transaction(connection);
            try {
                T result = work.apply(transaction);
                transaction.rollbackUnlessCommitted();
                return result;
            } catch (RuntimeException | Error e) {
                try {
                    transaction.rollbackUnlessCommitted();
                } catch (RuntimeException rollbackFailed) {
                    e.addSuppressed(rollbackFailed);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw translate(e);
        }
    }

    /** A transaction run by {@link #transaction}. */
    public final class Transaction {
        private final Connection connection;
        private boolean begun;
        private boolean committed;

        private Transaction(Connection connection) {
            this.connection = connection;
        }

        /** Sends the statements in one round trip (the first one also begins the transaction). */
        public Answers send(Statement... statements) {
            return send(List.of(statements));
        }

        /** Sends the statements in one round trip (the first one also begins the transaction). */
        public Answers send(List<Statement> statements) {
            return send(statements, false);
        }

        /** Sends the statements and the commit in one round trip. */
        public Answers commit(List<Statement> statements) {
            return send(statements, true);
        }

        private Answers send(List<Statement> statements, boolean commit) {
            if (committed) {
                throw new IllegalStateException("the transaction is committed");
            }
            List<Statement> all = new ArrayList<>(statements.size() + 2);
            if (!begun) {
                all.add(Statement.update("begin"));
            }
            all.addAll(statements);
            if (commit) {
                all.add(Statement.update("commit"));
            }
            boolean begins = !begun;
            begun = true; // from here on a failure leaves a transaction to roll back
            Answers answers;
            try (PreparedStatement ps = connection.prepareStatement(text(all))) {
                answers = run(ps, all);
            } catch (SQLException e) {
                throw translate(e);
            }
            committed = commit;
            int from = begins ? 1 : 0;
            return new Answers(answers.answers().subList(from, from + statements.size()));
        }

        private void rollbackUnlessCommitted() {
            if (!begun || committed) {
                return;
            }
            try (var statement = connection.createStatement()) {
                statement.execute("rollback");
            } catch (SQLException e) {
                throw translate(e);
            }
        }
    }

    private DataAccessException translate(SQLException e) {
        return jdbc.getExceptionTranslator().translate("RoundTrips", null, e);
    }

    private static String text(List<Statement> statements) {
        StringJoiner text = new StringJoiner(";\n");
        statements.forEach(s -> text.add(s.sql()));
        return text.toString();
    }

    private static Answers run(PreparedStatement ps, List<Statement> statements) throws SQLException {
        int index = 1;
        for (Statement statement : statements) {
            for (Object arg : statement.args()) {
                StatementCreatorUtils.setParameterValue(ps, index++, SqlTypeValue.TYPE_UNKNOWN, arg);
            }
        }
        boolean rows = ps.execute();
        List<Object> answers = new ArrayList<>(statements.size());
        for (Statement statement : statements) {
            if (rows) {
                List<Object> read = new ArrayList<>();
                try (ResultSet rs = ps.getResultSet()) {
                    int row = 0;
                    while (rs.next()) {
                        read.add(statement.rows() == null ? null : statement.rows().mapRow(rs, row++));
                    }
                }
                answers.add(read);
            } else {
                answers.add(ps.getUpdateCount());
            }
            rows = ps.getMoreResults();
        }
        return new Answers(answers);
    }
}
