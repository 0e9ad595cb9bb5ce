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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start and every tour under {@code docs/} run as written, in order, against the packaged service
 * on a default start (a fresh data folder, nothing configured), so the documents cannot drift from the service.
 * <p>
 * What runs is read from the Markdown itself ({@link Tour}): every fenced {@code sh} block, in order, in one bash per
 * document ({@link TourShell}), with {@code KEY} exported from the start banner's {@code export KEY=} line as the quick
 * start tells the reader to. Every command must succeed, each {@code curl} must answer the status of its
 * {@code # -> NNN} comment, and what it printed must be what the comment shows ({@link DocumentedResult}); the
 * browser steps pay in Chromium. {@code TourTest} proves that a failing command or a documented result that differs
 * fails a tour.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocsToursIT {

    /** The documents with tours, each run in a fresh shell; any other doc with a curl to the service must be here. */
    private static final List<String> TOURS = List.of("README.md", "docs/redemptions.md", "docs/billing.md",
            "docs/collect.md", "docs/refunds.md", "docs/series.md", "docs/events.md", "docs/versioning.md");

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
        Tour tour = Tour.read(document, Files.readString(Path.of(document)));
        try (TourShell shell = new TourShell(workDir, Map.of("KEY", key))) {
            tour.run(shell, port(), (pay, url) -> pay(url, pay, document));
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
                    .filter(p -> Tour.read(p.toString(), read(p)).steps().stream()
                            .anyMatch(s -> s instanceof Tour.Block b && b.text().contains("localhost:8080")))
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
    private void pay(String url, Tour.Pay step, String document) {
        assertThat(url).as("%s line %d: the URL to pay", document, step.line()).startsWith("http://localhost:");
        try (Browser browser = Browser.open("docs-tours", Browser.Window.DESKTOP)) {
            browser.get(url);
            if (step.kind().equals("pay-bank")) {
                browser.awaitText("You will approve the payment on your bank's page.");
                browser.select("Bank", "Nedbank");
                browser.find(By.xpath("//button[starts-with(normalize-space(.),'Pay ')]")).click();
                browser.awaitText("Approve at Nedbank");
                return;
            }
            if (step.kind().equals("pay-page")) {
                browser.awaitText("Continue to payment");
                browser.find(By.xpath("//label[@class='preset'][normalize-space(.)='ZAR 100.00']")).click();
                browser.type("Full name", "Thandi Nkosi").type("Email", "thandi@example.com").type("Phone", "082 555 0101");
                browser.select("Team", "North");
                browser.click("Continue to payment");
            }
            browser.await(d -> !d.findElements(By.xpath("//button[starts-with(normalize-space(.),'Pay ')]")).isEmpty(),
                    "the checkout's pay button");
            browser.type("Card number", step.card()).type("Expiry date", "12/34").type("Security code", "123");
            browser.find(By.xpath("//button[starts-with(normalize-space(.),'Pay ')]")).click();
            String outcome = browser.await(d -> d.findElement(By.tagName("body")).getAttribute("data-outcome"),
                    "the checkout's result");
            assertThat(outcome).as("%s line %d: the checkout's outcome", document, step.line()).isIn("paid", "reserved");
        }
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
