package io.tender.database;

import io.tender.TenderApplication;
import io.tender.support.Api;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;

import static io.tender.database.SuperuserLogins.connect;
import static io.tender.database.SuperuserLogins.passwordIn;
import static io.tender.database.SuperuserLogins.queryOne;
import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A data folder from before decisions §12, whose PostgreSQL let every local connection in without a password (as the
 * library initialises it: {@code pg_hba.conf} trust), keeps its data and is closed on the service's next start: the
 * password is generated and set, the rules ask for it, and later starts use the same one. A password-protected
 * database whose password file went missing is refused at start, naming the file.
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabasePasswordUpgradeIT {

    private static final String KEY = "sk_test_" + "7a6b5c4d3e2f10918273645546372819";

    @TempDir
    Path dataDir;

    @Test
    void aTrustingDataFolderKeepsItsDataAndRequiresThePasswordFromTheNextStart(CapturedOutput output) throws Exception {
        // The data folder as the service left it before: the library's own initdb (trust), the service's schema, and
        // a developer's data.
        try (EmbeddedPostgres old = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir.resolve("postgres"))
                .setCleanDataDirectory(false)
                .setLocaleConfig("locale", "C")
                .start();
             Connection connection = connect("127.0.0.1", old.getPort(), null);
             var statement = connection.createStatement()) {
            Flyway.configure().dataSource(old.getPostgresDatabase()).locations("classpath:db/migration").load().migrate();
            statement.execute("create table developers_notes (note text)");
            statement.execute("insert into developers_notes values ('kept')");
        }
        assertThat(dataDir.resolve(SuperuserLogins.PASSWORD_FILE)).doesNotExist();

        String password;
        try (ConfigurableApplicationContext context = start()) {
            int port = context.getBean(EmbeddedPostgres.class).getPort();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    dataDir.resolve(SuperuserLogins.PASSWORD_FILE)))).isEqualTo("rw-------");
            password = passwordIn(dataDir);

            assertThatThrownBy(() -> connect("127.0.0.1", port, null).close()).isInstanceOf(PSQLException.class);
            assertThatThrownBy(() -> connect("127.0.0.1", port, "postgres").close())
                    .isInstanceOf(PSQLException.class).hasMessageContaining("password authentication failed");
            try (Connection connection = connect("127.0.0.1", port, password)) {
                assertThat(queryOne(connection, "select note from developers_notes")).isEqualTo("kept");
                assertThat(queryOne(connection, "select string_agg(distinct auth_method, ', ') from pg_hba_file_rules"))
                        .isEqualTo("scram-sha-256");
            }
            assertCreatesARedemption(context);
        }

        // The next start reads the same password from the file and changes nothing.
        try (ConfigurableApplicationContext context = start()) {
            assertThat(passwordIn(dataDir)).isEqualTo(password);
            int port = context.getBean(EmbeddedPostgres.class).getPort();
            assertThatThrownBy(() -> connect("127.0.0.1", port, null).close()).isInstanceOf(PSQLException.class);
            try (Connection connection = connect("127.0.0.1", port, password)) {
                assertThat(queryOne(connection, "select note from developers_notes")).isEqualTo("kept");
            }
            assertCreatesARedemption(context);
        }
        assertThat(output.getAll()).doesNotContain(password);

        // Without its password file the database cannot be opened: the start says which file is missing.
        Files.delete(dataDir.resolve(SuperuserLogins.PASSWORD_FILE));
        assertThatThrownBy(this::start)
                .rootCause()
                .hasMessageContaining(dataDir.resolve(SuperuserLogins.PASSWORD_FILE).toString());
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(TenderApplication.class).run(
                "--server.port=0",
                "--management.server.port=0",
                "--tender.data-dir=" + dataDir,
                "--tender.bootstrap-keys=upgrade:" + KEY,
                "--tender.master-key=",
                "--tender.admin-token=");
    }

    private static void assertCreatesARedemption(ConfigurableApplicationContext context) {
        var api = new Api("http://localhost:" + context.getEnvironment().getProperty("local.server.port"), KEY);
        var created = api.post("/collect/redemptions", oneVoucher(validPin())).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
    }
}
