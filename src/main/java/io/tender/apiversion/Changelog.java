package io.tender.apiversion;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code docs/api-versions.md}, the changelog of the API's versions, made from the {@link VersionChange} classes
 * (decisions §15): a test rewrites the file and fails when it differs, so it cannot drift from the code.
 */
final class Changelog {

    /** What the oldest version served is. */
    static final String OLDEST_WORDS = "the payments API as introduced (the oldest version served)";

    private Changelog() {
    }

    static String markdown() {
        StringBuilder md = new StringBuilder("""
                # API versions

                Generated from the version changes in `io.tender.apiversion` by `ChangelogTest`; do not edit by hand \
                (a build whose code no longer matches this file rewrites it and fails: commit the result). How a \
                version is chosen, pinned and upgraded, with a tour: [versioning.md](versioning.md).

                """);
        md.append("The newest version is `").append(ApiVersions.NEWEST.wire()).append("`; the versions served are ")
                .append(ApiVersions.ALL.stream().map(v -> "`" + v.wire() + "`").collect(Collectors.joining(", ")))
                .append(". A request names its version in `").append(ApiVersions.HEADER).append("""
                        : YYYY-MM-DD`; without it, the account's pinned version applies (new accounts: the newest). \
                        Objects and events are stored in the newest shape and rendered down to the version asked for; \
                        a request in an older version is read up before it is validated. Additive changes (new fields, \
                        new endpoints, new event types) are in every version, and redemptions and billing read alike \
                        in every version.

                        Each version below lists what an integration pinned before it sends and reads instead: what \
                        upgrading past it changes.

                        | Version | Changes |
                        |---|---|
                        """);
        for (ApiVersion version : ApiVersions.ALL.reversed()) {
            List<VersionChange> changes = ApiVersions.changesIn(version);
            md.append("| [`").append(version.wire()).append("`](#").append(version.wire())
                    .append(") | ").append(changes.isEmpty() ? capitalised(OLDEST_WORDS)
                            : changes.stream().map(VersionChange::title).collect(Collectors.joining("; ")))
                    .append(" |\n");
        }
        for (ApiVersion version : ApiVersions.ALL.reversed()) {
            md.append("\n## ").append(version.wire()).append("\n");
            List<VersionChange> changes = ApiVersions.changesIn(version);
            if (changes.isEmpty()) {
                md.append("\n").append(capitalised(OLDEST_WORDS)).append(".\n");
            }
            for (VersionChange change : changes) {
                md.append("\n### ").append(change.title()).append("\n\nBefore ").append(version.wire()).append(":\n\n");
                change.details().forEach(detail -> md.append("- ").append(detail).append('\n'));
                md.append("\nWhere: ").append(change.paths().stream().sorted().map(p -> "`" + p + "`")
                        .collect(Collectors.joining(", ")));
                if (!change.eventTypes().isEmpty()) {
                    md.append("; events ").append(change.eventTypes().stream().sorted()
                            .map(t -> "`" + (t.endsWith(".") ? t + "*" : t) + "`").collect(Collectors.joining(", ")))
                            .append(" (webhooks, `GET /events`, `tender listen`)");
                }
                md.append(".\n");
            }
        }
        return md.toString();
    }

    private static String capitalised(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
