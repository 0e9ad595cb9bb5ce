package io.tender;

import io.tender.support.Api;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged launcher {@code target/tender/bin/tender} (made at {@code package} by src/aot/AotTraining.java) starts
 * the service, which answers, and when the build's JDK made a cache (JDK 24+: tender.aot; 21-23: tender.jsa) the
 * JVM loads the service's own classes from it instead of from the jar.
 */
class PackagedLauncherIT {

    private static final String KEY = "sk_test_" + "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b";
    private static final Path PACKAGED = Path.of("target", "tender");

    @TempDir
    Path dataDir;

    @Test
    void theLauncherStartsTheServiceWithTheTrainingRunsCache() {
        try (var service = ServiceProcess.packagedLauncher("launcher", ServiceProcess.freePort(), Map.of(
                "TENDER_DATA_DIR", dataDir.toString(),
                "TENDER_BOOTSTRAP_KEYS", "launcher:" + KEY,
                "JAVA_OPTS", "-Xlog:class+load=info")).start()) {
            var created = new Api(service.baseUrl(), KEY).post("/collect/redemptions", oneVoucher(validPin())).send();
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            assertThat(created.json().get("status").stringValue()).isEqualTo("confirmed");

            if (Files.exists(PACKAGED.resolve("tender.aot")) || Files.exists(PACKAGED.resolve("tender.jsa"))) {
                assertThat(service.output())
                        .contains("io.tender.TenderApplication source: shared objects file")
                        .contains("io.tender.redemption.RedemptionController source: shared objects file");
            } else {
                assertThat(service.output()).contains("io.tender.TenderApplication source: file:");
            }
        }
    }
}
