package io.tender.secrets;

import io.tender.TenderApplication;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Decisions §9: start-up refuses unsafe settings with a message naming the variable, before it starts a database
 * or opens a port. (That the embedded default starts with no settings at all is what every other test relies on.)
 */
class UnsafeSettingsIT {

    @TempDir
    Path dataDir;

    private void assertRefused(String variable, String... arguments) {
        String[] all = new String[arguments.length + 4];
        all[0] = "--server.port=0";
        all[1] = "--management.server.port=0";
        all[2] = "--tender.data-dir=" + dataDir;
        all[3] = "--tender.bootstrap-keys=";
        System.arraycopy(arguments, 0, all, 4, arguments.length);
        assertThatThrownBy(() -> new SpringApplicationBuilder(TenderApplication.class).run(all).close())
                .isInstanceOf(UnsafeSettings.RefusedException.class)
                .hasMessageContaining(variable);
        // Refused before anything started: no embedded PostgreSQL, no generated key file.
        assertThat(dataDir.resolve("postgres")).doesNotExist();
        assertThat(dataDir.resolve("master.key")).doesNotExist();
    }

    @Test
    void anAdminTokenShorterThan32CharactersIsRefused() {
        assertRefused("TENDER_ADMIN_TOKEN", "--tender.admin-token=x", "--tender.master-key=");
        assertRefused("TENDER_ADMIN_TOKEN", "--tender.admin-token=" + "a".repeat(31), "--tender.master-key=");
    }

    @Test
    void anExternalDatabaseWithoutAMasterKeyIsRefused() {
        assertRefused("TENDER_MASTER_KEY", "--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/tender",
                "--tender.master-key=", "--tender.admin-token=");
    }

    @Test
    void aPreviousMasterKeyWithoutANewOneIsRefused() {
        assertRefused("TENDER_MASTER_KEY_PREVIOUS", "--tender.master-key-previous=" + "A".repeat(43) + "=",
                "--tender.master-key=", "--tender.admin-token=");
    }

    @Test
    void thePackagedServiceExitsWithTheReasonNamingTheVariables() throws Exception {
        var exit = ServiceProcess.service("refused", ServiceProcess.freePort(), Map.of(
                        "TENDER_DATA_DIR", dataDir.toString(),
                        "SPRING_DATASOURCE_URL", "jdbc:postgresql://127.0.0.1:1/tender",
                        "TENDER_MASTER_KEY", "",
                        "TENDER_ADMIN_TOKEN", "short"))
                .runToExit(Duration.ofSeconds(60));
        assertThat(exit.code()).as(exit.output()).isNotZero();
        assertThat(exit.output()).contains("APPLICATION FAILED TO START")
                .contains("TENDER_ADMIN_TOKEN is shorter than 32 characters")
                .contains("SPRING_DATASOURCE_URL names an external database but TENDER_MASTER_KEY is not set");
        assertThat(Files.exists(dataDir.resolve("master.key"))).isFalse();
    }
}
