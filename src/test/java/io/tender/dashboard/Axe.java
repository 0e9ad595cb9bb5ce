package io.tender.dashboard;

import io.tender.support.Browser;
import org.openqa.selenium.JavascriptExecutor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** axe-core (its WebJar) run in a dashboard page by the browser tests: no serious or critical finding allowed. */
final class Axe {

    private static final String SOURCE = "/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js";

    private Axe() {
    }

    /**
     * Injects axe-core into the page (by the test: the page's CSP allows no other script) and fails on any serious
     * or critical finding, naming each rule and element.
     */
    static void noSeriousFindings(Browser browser) {
        browser.script(source());
        Object found = ((JavascriptExecutor) browser.driver()).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations
                    .filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', '))));
                """);
        assertThat((List<?>) found).as("axe-core findings on " + browser.url()).isEmpty();
    }

    private static String source() {
        try (InputStream in = Axe.class.getResourceAsStream(SOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
