package io.tender.api;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OneLineMessageTest {

    @Test
    void lineBreaksAndControlCharactersAreEscapedAndEverythingElseKept() {
        assertThat(OneLineMessage.escaped("Grace\r\n2026-11-28T00:00:00Z ERROR forged"))
                .isEqualTo("Grace\\r\\n2026-11-28T00:00:00Z ERROR forged");
        assertThat(OneLineMessage.escaped("red \u001b[31m bell \u0007 next\u2028line"))
                .isEqualTo("red \\u001b[31m bell \\u0007 next\\u2028line");
        assertThat(OneLineMessage.escaped("tab\tstays, ünïcödé stays")).isEqualTo("tab\tstays, ünïcödé stays");
        assertThat(OneLineMessage.escaped(null)).isNull();
    }

    @Test
    void aRefusedStartsReportKeepsItsLayoutWhileAnyOtherLoggersMessageIsOneLine() {
        var converter = new OneLineMessage();
        var context = new LoggerContext();
        String report = "\n\n***************************\nAPPLICATION FAILED TO START\n***************************\n";

        var startFailure = new LoggingEvent("x", context.getLogger(OneLineMessage.START_FAILURE), Level.ERROR, report, null, null);
        var other = new LoggingEvent("x", context.getLogger("io.tender.notify.LoggingSmsSender"), Level.INFO, report, null, null);

        assertThat(converter.convert(startFailure)).isEqualTo(report);
        assertThat(converter.convert(other)).doesNotContain("\n").contains("\\nAPPLICATION FAILED TO START");
    }
}
