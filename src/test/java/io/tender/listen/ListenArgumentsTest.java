package io.tender.listen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tender listen}'s arguments: what it says, and its exit code, when it cannot run; never the key it was given.
 */
class ListenArgumentsTest {

    private static final String KEY = "sk_test_4f9c0a1b2c3d4e5f60718293a4b5c6d7";

    @TempDir
    Path directory;

    private record Result(int exit, String output) {
    }

    private static Result run(Map<String, String> environment, String... arguments) {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
        int exit = Listen.run(List.of(arguments), environment, stream, stream);
        return new Result(exit, output.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withoutAKeyItNamesBothWaysToGiveOne() {
        Result result = run(Map.of(), "--forward-to", "http://localhost:3000/webhooks");
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.output()).contains("no API key").contains("--api-key").contains("TENDER_API_KEY")
                .contains("tender listen --help");
    }

    @Test
    void theKeyMayComeFromTheEnvironmentOrTheArgumentWhichWins() {
        var fromEnvironment = ListenOptions.parse(List.of("--forward-to", "localhost:3000/hooks"),
                Map.of("TENDER_API_KEY", KEY));
        assertThat(fromEnvironment).isInstanceOfSatisfying(ListenOptions.Run.class, run -> {
            assertThat(run.options().apiKey()).isEqualTo(KEY);
            assertThat(run.options().forwardTo()).hasToString("http://localhost:3000/hooks");
            assertThat(run.options().baseUrl()).hasToString("http://localhost:8080");
            assertThat(run.options().interval()).isEqualTo(Duration.ofSeconds(1));
            assertThat(run.options().toString()).doesNotContain(KEY);
        });
        var fromArgument = ListenOptions.parse(List.of("--forward-to=http://127.0.0.1:3000/", "--api-key=sk_test_other",
                "--since", "10m"), Map.of("TENDER_API_KEY", KEY));
        assertThat(fromArgument).isInstanceOfSatisfying(ListenOptions.Run.class, run -> {
            assertThat(run.options().apiKey()).isEqualTo("sk_test_other");
            assertThat(run.options().since()).isEqualTo(Duration.ofMinutes(10));
        });
    }

    @Test
    void withoutForwardToItSaysWhatItNeeds() {
        Result result = run(Map.of("TENDER_API_KEY", KEY));
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.output()).contains("--forward-to URL is required").doesNotContain(KEY);
    }

    @Test
    void badUrlsUnknownTypesAndUnknownArgumentsAreRefusedWithoutEchoingTheKey() {
        List<List<String>> cases = List.of(
                List.of("--forward-to", "ftp://localhost/x"),
                List.of("--forward-to", "http://"),
                List.of("--forward-to", "http://localhost:3000/", "--base-url", "not a url"),
                List.of("--forward-to", "http://localhost:3000/", "--events", "redemption.confrimed"),
                List.of("--forward-to", "http://localhost:3000/", "--events", "nothing.*"),
                List.of("--forward-to", "http://localhost:3000/", "--since", "yesterday"),
                List.of("--forward-to", "http://localhost:3000/", "--interval", "0s"),
                List.of("--forward-to", "http://localhost:3000/", "--api-version", "2026-03-14"),
                List.of("--forward-to", "http://localhost:3000/", "--api-version", "latest"),
                List.of("--forward-to", "http://localhost:3000/", "--colour"),
                List.of("--forward-to", "http://localhost:3000/", KEY),
                List.of("--forward-to"));
        for (List<String> arguments : cases) {
            List<String> withKey = new ArrayList<>(arguments);
            withKey.addAll(0, List.of("--api-key", KEY));
            Result result = run(Map.of(), withKey.toArray(String[]::new));
            assertThat(result.exit()).as(arguments.toString()).isEqualTo(2);
            assertThat(result.output()).as(arguments.toString()).startsWith("tender listen: ").doesNotContain(KEY);
        }
        assertThat(run(Map.of(), "--api-key", KEY, "--forward-to", "http://localhost:3000/", "--events", "redemption.confrimed")
                .output()).contains("redemption.confrimed is not an event type");
    }

    @Test
    void apiVersionTakesAVersionTenderServesAndNamesThemOtherwise() {
        assertThat(run(Map.of(), "--api-key", KEY, "--forward-to", "http://localhost:3000/", "--api-version", "2026-03-14")
                .output()).contains("--api-version: 2026-03-14 is not a version Tender serves: one of 2026-03-13, "
                + "2026-03-15, 2026-03-16, 2026-06-01");
        assertThat(ListenOptions.parse(List.of("--forward-to", "localhost:3000/hooks", "--api-version", "2026-03-16"),
                Map.of("TENDER_API_KEY", KEY))).isInstanceOfSatisfying(ListenOptions.Run.class,
                run -> assertThat(run.options().apiVersion().wire()).isEqualTo("2026-03-16"));
        assertThat(ListenOptions.parse(List.of("--forward-to", "localhost:3000/hooks"), Map.of("TENDER_API_KEY", KEY)))
                .isInstanceOfSatisfying(ListenOptions.Run.class, run -> assertThat(run.options().apiVersion()).isNull());
    }

    @Test
    void aPublishableOrLiveKeyIsRefusedUnlessLiveIsAskedFor() {
        assertThat(run(Map.of(), "--forward-to", "http://localhost:3000/", "--api-key", "pk_test_abc").output())
                .contains("must be a secret key");
        Result live = run(Map.of("TENDER_API_KEY", "sk_live_0123456789abcdef0123"), "--forward-to", "http://localhost:3000/");
        assertThat(live.exit()).isEqualTo(2);
        assertThat(live.output()).contains("live key").contains("--live").doesNotContain("sk_live_0123456789abcdef0123");
        assertThat(ListenOptions.parse(List.of("--forward-to", "http://localhost:3000/", "--live"),
                Map.of("TENDER_API_KEY", "sk_live_0123456789abcdef0123"))).isInstanceOf(ListenOptions.Run.class);
    }

    @Test
    void helpPrintsTheUsage() {
        Result result = run(Map.of(), "--help");
        assertThat(result.exit()).isZero();
        assertThat(result.output()).startsWith("Usage: tender listen --forward-to URL").contains("TENDER_API_KEY")
                .contains("--events").contains("--since").contains("--state");
    }

    @Test
    void aServiceThatIsNotRunningIsNamedWithWhatToDo() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Result result = run(Map.of("TENDER_API_KEY", KEY), "--forward-to", "http://localhost:3000/",
                "--base-url", "http://127.0.0.1:" + port, "--state", directory.resolve("state.json").toString());
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.output()).contains("cannot reach Tender at http://127.0.0.1:" + port)
                .contains("--base-url").doesNotContain("whsec_").doesNotContain(KEY);
        assertThat(directory.resolve("state.json")).doesNotExist();
    }

    @Test
    void eventFilterMatchesExactTypesAndPrefixes() {
        EventFilter filter = EventFilter.parse("redemption.confirmed, payment_session.*");
        assertThat(filter.matches("redemption.confirmed")).isTrue();
        assertThat(filter.matches("payment_session.completed")).isTrue();
        assertThat(filter.matches("redemption.created")).isFalse();
        assertThat(filter.matches("payment.succeeded")).isFalse();
        assertThat(EventFilter.parse("*").matches("refund.created")).isTrue();
    }
}
