package io.tender.listen;

import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code listen} is a mode of the packaged launcher ({@code java -jar target/tender.jar listen ...}, which
 * {@code ./tender listen} runs): it answers at once, without starting the service.
 */
class ListenLauncherIT {

    @Test
    void listenHelpPrintsTheUsageWithoutStartingTheService() {
        var exit = ServiceProcess.service("listen-help", ServiceProcess.freePort(), Map.of(), "listen", "--help")
                .runToExit(Duration.ofSeconds(60));
        assertThat(exit.code()).as(exit.output()).isZero();
        assertThat(exit.output()).startsWith("Usage: tender listen --forward-to URL").doesNotContain("Started TenderApplication");
    }

    @Test
    void listenWithoutAKeyExitsWithAMessageThatNamesBothWaysToGiveOne() {
        var exit = ServiceProcess.service("listen-no-key", ServiceProcess.freePort(), Map.of("TENDER_API_KEY", ""),
                "listen", "--forward-to", "http://localhost:3000/webhooks").runToExit(Duration.ofSeconds(60));
        assertThat(exit.code()).as(exit.output()).isEqualTo(2);
        assertThat(exit.output()).contains("no API key").contains("--api-key").contains("TENDER_API_KEY");
    }
}
