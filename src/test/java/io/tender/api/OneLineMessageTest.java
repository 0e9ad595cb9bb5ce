package io.tender.api;

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
}
