package io.tender.database;

import io.tender.support.ApiIntegrationTest;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.postgresql.util.PSQLException;

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
 * Decisions §12: the embedded PostgreSQL lets nobody in without its superuser's password, which the service
 * generated into its data folder on first start, readable only by the folder's owner. Tried as another user of the
 * machine would: JDBC to the server's port as {@code postgres}, with no password and with a wrong one.
 */
class DatabasePasswordIT extends ApiIntegrationTest {

    @Autowired
    EmbeddedPostgres postgres;

    @Value("${tender.data-dir}")
    Path dataDir;

    @Test
    void aLoginWithoutAPasswordIsRefused() {
        for (String host : new String[] {"127.0.0.1", "localhost"}) {
            assertThatThrownBy(() -> connect(host, postgres.getPort(), null).close())
                    .as("no password, on %s", host)
                    .isInstanceOf(PSQLException.class)
                    .hasMessageContaining("password");
        }
    }

    @Test
    void aLoginWithAWrongPasswordIsRefused() {
        assertThatThrownBy(() -> connect("127.0.0.1", postgres.getPort(), "postgres").close())
                .isInstanceOf(PSQLException.class)
                .hasMessageContaining("password authentication failed");
        assertThatThrownBy(() -> connect("127.0.0.1", postgres.getPort(), passwordIn(dataDir) + "x").close())
                .isInstanceOf(PSQLException.class)
                .hasMessageContaining("password authentication failed");
    }

    @Test
    void theGeneratedPasswordLogsInAndEveryRuleAsksForIt() throws Exception {
        try (Connection connection = connect("127.0.0.1", postgres.getPort(), passwordIn(dataDir))) {
            assertThat(queryOne(connection, "select current_user")).isEqualTo("postgres");
            // The rules in force for every kind of connection, the Unix socket's ("local") too: none lets anyone in
            // without the password.
            assertThat(queryOne(connection, """
                    select string_agg(distinct type || ' ' || auth_method, ', ') from pg_hba_file_rules
                    """)).isEqualTo("host scram-sha-256, local scram-sha-256");
            assertThat(queryOne(connection, "select count(*) from pg_hba_file_rules where error is not null"))
                    .isEqualTo("0");
            assertThat(queryOne(connection, "select rolpassword like 'SCRAM-SHA-256$%' from pg_authid where rolname = 'postgres'"))
                    .isEqualTo("t");
        }
    }

    @Test
    void thePasswordFileIsTheOwnersAloneAndHoldsAStrongPassword() throws Exception {
        Path file = dataDir.resolve(SuperuserLogins.PASSWORD_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        // 32 random bytes, base64url without padding: 256 bits.
        assertThat(passwordIn(dataDir)).matches("[A-Za-z0-9_-]{43}");
        assertThat(Files.readString(file).lines().count()).isEqualTo(1);
    }

    @Test
    void theServiceWorksOnThePasswordProtectedDatabase() {
        var merchant = merchants.create();
        var created = merchant.test().post("/collect/redemptions", oneVoucher(validPin())).send();
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("status").stringValue()).isEqualTo("confirmed");
    }
}
