package io.tender.apiversion;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/api-versions.md} is the changelog the version-change classes make (decisions §15): when the file differs
 * from what they make now, this rewrites it and fails, so that the build that changes a version says to commit it
 * (as {@code ModulesTest} does for {@code docs/modules}).
 */
class ChangelogTest {

    private static final Path CHANGELOG = Path.of("docs", "api-versions.md");

    @Test
    void docsApiVersionsIsWhatTheVersionChangesSay() throws IOException {
        String expected = Changelog.markdown();
        boolean stale = !Files.exists(CHANGELOG) || !Files.readString(CHANGELOG).equals(expected);
        if (stale) {
            Files.writeString(CHANGELOG, expected);
        }
        assertThat(stale).as("docs/api-versions.md was stale and has been regenerated; commit it").isFalse();
    }

    @Test
    void everyVersionAndEveryChangeIsInIt() {
        String changelog = Changelog.markdown();
        ApiVersions.ALL.forEach(version -> assertThat(changelog).contains("## " + version.wire()));
        ApiVersions.changes().forEach(change -> {
            assertThat(changelog).contains("### " + change.title());
            change.details().forEach(detail -> assertThat(changelog).contains(detail));
        });
    }
}
