package io.tender.api;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The log pattern's {@code %m} (registered in {@code logback-spring.xml}): the message with its line breaks and
 * other control characters escaped ({@code \n}, {@code \r}, {@code \u001b}…), so that text which came from outside
 * (a name, a description, a header) can never start a forged log line or drive a terminal (decisions §12). The
 * stack trace of an exception is its own part of the pattern ({@code %wEx}) and keeps its lines, and so does Spring
 * Boot's report of a refused start ({@link #START_FAILURE}), written before the service takes any request: an
 * operator reads that block as it is laid out.
 */
public class OneLineMessage extends MessageConverter {

    static final String START_FAILURE = "org.springframework.boot.diagnostics.LoggingFailureAnalysisReporter";

    @Override
    public String convert(ILoggingEvent event) {
        String message = super.convert(event);
        return START_FAILURE.equals(event.getLoggerName()) ? message : escaped(message);
    }

    static String escaped(String message) {
        if (message == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            boolean control = Character.isISOControl(c) && c != '\t' || c == '\u2028' || c == '\u2029';
            if (control && out == null) {
                out = new StringBuilder(message.length() + 16).append(message, 0, i);
            }
            if (out != null) {
                if (!control) {
                    out.append(c);
                } else if (c == '\n') {
                    out.append("\\n");
                } else if (c == '\r') {
                    out.append("\\r");
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return out == null ? message : out.toString();
    }
}
