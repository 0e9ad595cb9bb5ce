package io.tender;

import io.tender.support.Browser;
import io.tender.support.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.By;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's quick start and every tour under {@code docs/} run as written, in order, against the packaged service
 * on a default start (a fresh data folder, nothing configured), so the documents cannot drift from the service.
 * <p>
 * What runs is read from the Markdown itself: every fenced {@code sh} block, in order, in one bash per document, with
 * {@code KEY} exported from the start banner's {@code export KEY=} line as the quick start tells the reader to.
 * Each {@code # -> NNN} in a block is the HTTP status of the block's next {@code curl} ({@code # -> NNN+}: of one or
 * more in a row, for a loop that asks until something is done): the block's statuses must be exactly those, in order
 * (a {@code curl} function records them, leaving its output alone). A block right after
 * {@code <!-- not run: why -->} is skipped (it starts processes or needs what the tour says to set up first). Where
 * the reader is told to pay in a browser, {@code <!-- tour: pay VAR CARD -->} or {@code <!-- tour: pay-page VAR -->}
 * does it in Chromium: the URL held by the shell variable {@code VAR}, the card typed into the hosted checkout;
 * {@code <!-- tour: pay-bank VAR -->} chooses Nedbank on a pay-by-bank checkout and stops at the bank's page, the
 * payment in flight. The
 * only change made to a block is the port: {@code localhost:8080} becomes the test's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocsToursIT {

    /** The documents with tours, each run in a fresh shell; any other doc with a curl to the service must be here. */
    private static final List<String> TOURS = List.of("README.md", "docs/redemptions.md", "docs/billing.md",
            "docs/collect.md", "docs/refunds.md", "docs/series.md", "docs/events.md", "docs/versioning.md");
    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\S*)\\n(.*?)^```\\n", Pattern.DOTALL);
    private static final Pattern DIRECTIVE = Pattern.compile("<!-- tour: (pay|pay-page|pay-bank) (\\w+)(?: (\\d+))? -->");
    private static final Pattern NOT_RUN = Pattern.compile("<!-- not run: [^>]+-->\\s*\\z");
    private static final Pattern EXPECTED = Pattern.compile("#\\s*->\\s*(\\d{3}\\+?)");
    private static final String END = "__TOUR_BLOCK_END__";

    private ServiceProcess service;
    private String key;
    private double startSeconds;

    @BeforeAll
    void start() throws IOException {
        Path dataDir = Files.createTempDirectory("docs-tours");
        long started = System.nanoTime();
        service = ServiceProcess.service("docs-tours", ServiceProcess.freePort(),
                Map.of("TENDER_DATA_DIR", dataDir.toString())).start();
        Matcher export = Pattern.compile("export KEY=(sk_test_\\w+)").matcher(service.output());
        assertThat(export.find()).as("the start banner prints an export KEY= line:%n%s", service.output()).isTrue();
        key = export.group(1);
        startSeconds = (System.nanoTime() - started) / 1e9;
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @ParameterizedTest
    @MethodSource("tours")
    void theTourRunsAsWritten(String document, @TempDir Path workDir) throws Exception {
        long started = System.nanoTime();
        List<Step> steps = steps(Files.readString(Path.of(document)));
        assertThat(steps).as("%s has shell blocks to run", document).isNotEmpty();
        try (Shell shell = new Shell(workDir)) {
            for (Step step : steps) {
                switch (step) {
                    case Block block -> {
                        String script = block.text().replace("localhost:8080", "localhost:" + port());
                        Shell.Result result = shell.run(script);
                        assertThat(result.output()).as("%s, the block at line %d:%n%s", document, block.line(), script)
                                .doesNotContain("command not found", "jq: error", "parse error");
                        assertThat(block.matches(result.statuses())).as("%s, the block at line %d answered %s, "
                                + "its comments say %s:%n%s%n%s", document, block.line(), result.statuses(),
                                block.expected(), script, result.output()).isTrue();
                    }
                    case Pay pay -> pay(shell.value(pay.variable()), pay, document);
                }
            }
        }
        // For the record (docs/testing.md): how long a reader's machine took for this tour, browser steps included.
        System.out.printf("DocsToursIT: %s ran in %.1f s (the service started in %.1f s)%n", document,
                (System.nanoTime() - started) / 1e9, startSeconds);
    }

    /** A document with a runnable block that calls the service is a tour: it runs here, or says why not. */
    @org.junit.jupiter.api.Test
    void everyDocumentThatCallsTheServiceIsATour() throws IOException {
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            List<String> calling = docs.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> steps(read(p)).stream().anyMatch(s -> s instanceof Block b && b.text().contains("localhost:8080")))
                    .map(p -> "docs/" + p.getFileName()).sorted().toList();
            assertThat(TOURS).containsAll(calling);
        }
    }

    static List<String> tours() {
        return TOURS;
    }

    private int port() {
        return Integer.parseInt(service.baseUrl().substring(service.baseUrl().lastIndexOf(':') + 1));
    }

    /**
     * What the reader does in the browser: pays a checkout (or a payment page, then its checkout) by card, or starts
     * paying a checkout by bank and leaves it at the bank's page.
     */
    private void pay(String url, Pay step, String document) {
        int line = step.line();
        assertThat(url).as("%s line %d: the URL to pay", document, line).startsWith("http://localhost:");
        String local = url.replace("localhost:8080", "localhost:" + port());
        try (Browser browser = Browser.open("docs-tours", Browser.Window.DESKTOP)) {
            browser.get(local);
            if (step.kind().equals("pay-bank")) {
                browser.awaitText("You will approve the payment on your bank's page.");
                browser.select("Bank", "Nedbank");
                browser.find(By.xpath("//button[starts-with(normalize-space(.),'Pay ')]")).click();
                browser.awaitText("Approve at Nedbank");
                return;
            }
            String card = step.card();
            if (step.kind().equals("pay-page")) {
                browser.awaitText("Continue to payment");
                browser.find(By.xpath("//label[@class='preset'][normalize-space(.)='ZAR 100.00']")).click();
                browser.type("Full name", "Thandi Nkosi").type("Email", "thandi@example.com").type("Phone", "082 555 0101");
                browser.select("Team", "North");
                browser.click("Continue to payment");
            }
            browser.await(d -> !d.findElements(By.xpath("//button[starts-with(normalize-space(.),'Pay ')]")).isEmpty(),
                    "the checkout's pay button");
            browser.type("Card number", card).type("Expiry date", "12/34").type("Security code", "123");
            browser.find(By.xpath("//button[starts-with(normalize-space(.),'Pay ')]")).click();
            String outcome = browser.await(d -> d.findElement(By.tagName("body")).getAttribute("data-outcome"),
                    "the checkout's result");
            assertThat(outcome).as("%s line %d: the checkout's outcome", document, line).isIn("paid", "reserved");
        }
    }

    sealed interface Step permits Block, Pay {
    }

    /**
     * A shell block, its first line's number in the document, and the statuses its comments promise: {@code 200},
     * or {@code 200+} for one or more in a row (a loop that asks until something is done).
     */
    record Block(String text, int line, List<String> expected) implements Step {

        boolean matches(List<Integer> statuses) {
            var pattern = new StringBuilder();
            for (String status : expected) {
                pattern.append(status.endsWith("+") ? "(?:" + status.substring(0, 3) + " )+" : status + " ");
            }
            var seen = new StringBuilder();
            statuses.forEach(status -> seen.append(status).append(' '));
            return seen.toString().matches(pattern.toString());
        }
    }

    /** A browser step: pay the URL in {@code variable} ({@code kind}: {@code pay}, {@code pay-page} or {@code pay-bank}). */
    record Pay(String variable, String card, String kind, int line) implements Step {
    }

    /** The document's runnable blocks and browser steps, in order. */
    static List<Step> steps(String markdown) {
        record At(int offset, Step step) {
        }
        List<At> found = new ArrayList<>();
        Matcher fence = FENCE.matcher(markdown);
        while (fence.find()) {
            if (!fence.group(1).equals("sh")) {
                continue;
            }
            String before = markdown.substring(Math.max(0, fence.start() - 300), fence.start());
            if (NOT_RUN.matcher(before).find()) {
                continue;
            }
            List<String> expected = new ArrayList<>();
            Matcher status = EXPECTED.matcher(fence.group(2));
            while (status.find()) {
                expected.add(status.group(1));
            }
            found.add(new At(fence.start(), new Block(fence.group(2), line(markdown, fence.start()) + 1, expected)));
        }
        Matcher directive = DIRECTIVE.matcher(markdown);
        while (directive.find()) {
            String card = directive.group(3) == null ? "4242424242424242" : directive.group(3);
            found.add(new At(directive.start(), new Pay(directive.group(2), card, directive.group(1),
                    line(markdown, directive.start()))));
        }
        found.sort(java.util.Comparator.comparingInt(At::offset));
        return found.stream().map(At::step).toList();
    }

    private static int line(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One bash for one document, fed block by block; its {@code curl} is a function that records each answer's
     * status in a file and otherwise behaves as curl. Its own working folder, so files a tour writes stay there.
     */
    private final class Shell implements AutoCloseable {

        record Result(String output, List<Integer> statuses) {
        }

        /** What bash printed, line by line, read on a thread of its own so that a block that hangs is given up. */
        private static final String EOF = "__TOUR_BASH_ENDED__";
        private final java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        private final Process bash;
        private final Writer in;
        private final Path statuses;

        Shell(Path workDir) throws IOException {
            statuses = workDir.resolve(".statuses");
            var builder = new ProcessBuilder("bash", "--noprofile", "--norc").directory(workDir.toFile())
                    .redirectErrorStream(true);
            builder.environment().put("KEY", key);
            builder.environment().put("HOME", workDir.toString());
            bash = builder.start();
            in = new java.io.OutputStreamWriter(bash.getOutputStream(), StandardCharsets.UTF_8);
            var out = new BufferedReader(new InputStreamReader(bash.getInputStream(), StandardCharsets.UTF_8));
            Thread.ofVirtual().start(() -> {
                try {
                    for (String line; (line = out.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // bash was stopped
                }
                lines.add(EOF);
            });
            send("""
                    TOUR_STATUSES=%s
                    curl() {
                      local headers rc
                      headers=$(mktemp)
                      command curl -D "$headers" "$@"; rc=$?
                      awk 'toupper($1) ~ /^HTTP\\// { s = $2 } END { print (s == "" ? "000" : s) }' "$headers" >> "$TOUR_STATUSES"
                      rm -f "$headers"
                      return $rc
                    }
                    """.formatted(statuses));
        }

        Result run(String script) throws IOException {
            Files.deleteIfExists(statuses);
            send(script);
            String output = readUntilEnd();
            List<Integer> seen = Files.exists(statuses)
                    ? Files.readAllLines(statuses).stream().map(Integer::parseInt).toList() : List.of();
            return new Result(output, seen);
        }

        /** The value of a shell variable, as the browser step needs it. */
        String value(String variable) throws IOException {
            in.write("printf '%s\\n' \"$" + variable + "\"\n");
            in.flush();
            String output = readUntilEnd().strip();
            return output;
        }

        private void send(String script) throws IOException {
            in.write(script);
            in.write("\n");
            in.flush();
        }

        private String readUntilEnd() throws IOException {
            in.write("printf '\\n" + END + "\\n'\n");
            in.flush();
            var text = new StringBuilder();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try {
                while (true) {
                    String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    if (line == null) {
                        bash.destroyForcibly();
                        fail("a block ran longer than 2 minutes; so far it printed:\n" + text);
                    }
                    if (line.equals(END)) {
                        return text.toString();
                    }
                    if (line.equals(EOF)) {
                        fail("bash ended; it printed:\n" + text);
                    }
                    text.append(line).append('\n');
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                if (!bash.waitFor(10, TimeUnit.SECONDS)) {
                    bash.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
