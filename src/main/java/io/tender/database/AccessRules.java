package io.tender.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * Who may connect to the embedded PostgreSQL ({@code pg_hba.conf}): whoever gives the superuser's password, over TCP
 * or the Unix socket (scram-sha-256), and nobody else. A data folder initialised before decisions §12 let every
 * local connection in ({@code trust}); {@link #requirePassword} closes it on the first start that finds it so.
 */
final class AccessRules {

    /** The rules {@code initdb --auth=scram-sha-256} writes for a new data folder, and an older one is given. */
    static final String PASSWORD_ONLY = """
            # Written by Tender (decisions §12): every connection needs the superuser's password, which is in
            # postgres.password beside this folder, readable by its owner alone.
            # TYPE  DATABASE     USER  ADDRESS       METHOD
            local   all          all                 scram-sha-256
            host    all          all   127.0.0.1/32  scram-sha-256
            host    all          all   ::1/128       scram-sha-256
            local   replication  all                 scram-sha-256
            host    replication  all   127.0.0.1/32  scram-sha-256
            host    replication  all   ::1/128       scram-sha-256
            """;

    private static final Logger log = LoggerFactory.getLogger(AccessRules.class);
    private static final Duration RELOAD_WAIT = Duration.ofSeconds(10);

    private AccessRules() {
    }

    /** Whether {@code pg_hba.conf} in {@code pgData} lets anyone in without a password (read before the server starts). */
    static boolean trustsAnyone(Path pgData) throws IOException {
        Path hba = pgData.resolve("pg_hba.conf");
        if (!Files.exists(hba)) {
            return false;
        }
        return Files.readAllLines(hba).stream()
                .map(line -> line.replaceFirst("#.*", "").trim())
                .filter(line -> !line.isEmpty())
                .anyMatch(line -> Arrays.asList(line.split("\\s+")).contains("trust"));
    }

    /**
     * Makes the running server ask every connection for {@code password}, if any rule it reads lets one in
     * without: sets the superuser's password (sent as a SCRAM verifier, never in clear), writes {@link
     * #PASSWORD_ONLY}, reloads, waits until a login without the password is refused, and closes every session
     * opened before. Returns whether it had to.
     */
    static boolean requirePassword(EmbeddedPostgres postgres, Path pgData, SuperuserPassword password)
            throws SQLException, IOException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection()) {
            if (rulesWithoutPassword(connection) == 0) {
                return false;
            }
            connection.unwrap(PGConnection.class)
                    .alterUserPassword("postgres", password.value().toCharArray(), "scram-sha-256");
            writeAtomically(pgData.resolve("pg_hba.conf"), PASSWORD_ONLY);
            try (var statement = connection.createStatement()) {
                statement.execute("select pg_reload_conf()");
            }
            awaitLoginWithoutPasswordRefused(postgres);
            try (var statement = connection.createStatement()) {
                // Sessions let in while the old rules held keep no access.
                statement.execute("""
                        select pg_terminate_backend(pid) from pg_stat_activity
                        where backend_type = 'client backend' and pid <> pg_backend_pid()
                        """);
            }
            if (rulesWithoutPassword(connection) != 0) {
                throw new IllegalStateException(pgData.resolve("pg_hba.conf") + " still lets connections in without a password");
            }
            return true;
        }
    }

    /** Rules the server reads that let a connection in without a password, or that it cannot read. */
    private static int rulesWithoutPassword(Connection connection) throws SQLException {
        try (var statement = connection.createStatement();
             var rows = statement.executeQuery(
                     "select count(*) from pg_hba_file_rules where auth_method = 'trust' or error is not null")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static void writeAtomically(Path file, String content) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.deleteIfExists(next);
        Files.createFile(next, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(next, content);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The postmaster applies a reload when it gets to the signal: until then the old rules may still let one in. */
    private static void awaitLoginWithoutPasswordRefused(EmbeddedPostgres postgres) {
        var withoutPassword = postgres.getDatabase("postgres", "postgres", Map.of());
        Instant deadline = Instant.now().plus(RELOAD_WAIT);
        while (Instant.now().isBefore(deadline)) {
            try (Connection ignored = withoutPassword.getConnection()) {
                log.debug("A login without the password still succeeds; waiting for the reload");
            } catch (SQLException refused) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the embedded PostgreSQL reloaded its rules", e);
            }
        }
        throw new IllegalStateException("The embedded PostgreSQL still lets logins in without a password after "
                + RELOAD_WAIT.toSeconds() + " s");
    }
}
