package io.tender.database;

import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Statements sent together (the redemption path and the sandbox provider rely on this): they run in order, each
 * seeing the ones before it, all in the caller's transaction or all in a transaction of their own, and nothing of a
 * failed transaction stays behind, on the table or on the pooled connection.
 */
class RoundTripsIT extends ApiIntegrationTest {

    @Autowired
    RoundTrips trips;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    TransactionTemplate tx;

    @BeforeEach
    void table() {
        jdbc.sql("create table round_trips_it (id text primary key, n int not null)").update();
    }

    @AfterEach
    void dropTable() {
        jdbc.sql("drop table round_trips_it").update();
    }

    private List<String> ids() {
        return jdbc.sql("select id from round_trips_it order by id").query(String.class).list();
    }

    @Test
    void statementsRunInOrderAndAnswerInOrderInTheCallersTransaction() {
        Answers answers = tx.execute(s -> trips.send(
                Statement.update("insert into round_trips_it values (?, ?)", "a", 1),
                Statement.update("update round_trips_it set n = n + ? where id = ?", 41, "a"),
                Statement.query("select n from round_trips_it where id = ?", (rs, i) -> rs.getInt(1), "a"),
                Statement.update("update round_trips_it set n = 0 where id = :id", java.util.Map.of("id", "nobody"))));

        assertThat(answers.count(0)).isEqualTo(1);
        assertThat(answers.count(1)).isEqualTo(1);
        assertThat(answers.<Integer>row(2)).contains(42);
        assertThat(answers.count(3)).isZero();
        assertThat(ids()).containsExactly("a");
    }

    @Test
    void whatWasSentRollsBackWithTheCallersTransaction() {
        assertThatThrownBy(() -> tx.executeWithoutResult(s -> {
            trips.send(Statement.update("insert into round_trips_it values (?, ?)", "a", 1));
            throw new IllegalStateException("the caller changes its mind");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(ids()).isEmpty();
        assertThatThrownBy(() -> trips.send(Statement.update("insert into round_trips_it values (?, ?)", "b", 1)))
                .as("outside a transaction each statement would commit alone").isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFailingStatementStopsTheRestAndTheTransactionRollsBack() {
        assertThatThrownBy(() -> tx.executeWithoutResult(s -> trips.send(
                Statement.update("insert into round_trips_it values (?, ?)", "a", 1),
                Statement.update("insert into round_trips_it values (?, ?)", "a", 2),
                Statement.update("insert into round_trips_it values (?, ?)", "c", 3))))
                .isInstanceOf(DataAccessException.class);

        assertThat(ids()).isEmpty();
    }

    @Test
    void anOwnTransactionCommitsWithItsLastRoundTripEvenUnderACallersTransaction() {
        tx.executeWithoutResult(s -> {
            trips.send(Statement.update("insert into round_trips_it values (?, ?)", "caller", 1));
            int found = trips.transaction(t -> {
                int n = t.send(Statement.update("insert into round_trips_it values (?, ?)", "own", 1),
                        Statement.query("select count(*) from round_trips_it", (rs, i) -> rs.getInt(1))).<Integer>row(1)
                        .orElseThrow();
                t.commit(List.of(Statement.update("update round_trips_it set n = 2 where id = ?", "own")));
                return n;
            });
            assertThat(found).as("its own connection does not see the caller's uncommitted row").isEqualTo(1);
            s.setRollbackOnly();
        });

        assertThat(ids()).containsExactly("own");
        assertThat(jdbc.sql("select n from round_trips_it where id = 'own'").query(Integer.class).single()).isEqualTo(2);
    }

    @Test
    void anOwnTransactionThatFailsOrDoesNotCommitLeavesNothingAndAUsableConnection() {
        assertThatThrownBy(() -> trips.transaction(t -> {
            t.send(Statement.update("insert into round_trips_it values (?, ?)", "a", 1));
            return t.commit(List.of(Statement.update("insert into round_trips_it values (?, ?)", "a", 2)));
        })).isInstanceOf(DataAccessException.class);
        assertThatThrownBy(() -> trips.transaction(t -> {
            t.send(Statement.update("insert into round_trips_it values (?, ?)", "b", 1));
            throw new IllegalStateException("the work fails between round trips");
        })).isInstanceOf(IllegalStateException.class);
        trips.transaction(t -> t.send(Statement.update("insert into round_trips_it values (?, ?)", "c", 1)));

        assertThat(ids()).as("nothing of the three transactions stayed").isEmpty();
        // Every pooled connection is clean: as many transactions as the pool has connections all work.
        for (int i = 0; i < 20; i++) {
            String id = "ok" + i;
            int n = i;
            trips.transaction(t -> t.commit(List.of(Statement.update("insert into round_trips_it values (?, ?)", id, n))));
        }
        assertThat(ids()).hasSize(20);
    }
}
