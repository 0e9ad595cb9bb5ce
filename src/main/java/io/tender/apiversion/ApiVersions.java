package io.tender.apiversion;

import io.tender.api.JsonInput;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Tender's versions and the changes between them (decisions §15), oldest first. The oldest served version,
 * {@value #OLDEST_TEXT}, is the payments API as introduced; every later version is the date of one or more
 * {@link VersionChange}s. A new change is one class and one line here.
 */
public final class ApiVersions {

    /** The request header that picks a version, and the answer header that says which one rendered it. */
    public static final String HEADER = "Tender-Version";

    private static final String OLDEST_TEXT = "2026-03-13";

    /** The oldest version served: the payments API as introduced. */
    public static final ApiVersion OLDEST = ApiVersion.of(OLDEST_TEXT);

    private static final List<VersionChange> CHANGES = List.of(
            new DisplayPayButtonRenamed(),
            new PaymentNotFoundCode(),
            new PayByBankRenamed(),
            new InFlightStatusesFolded());

    /** Every version served, oldest first. */
    public static final List<ApiVersion> ALL = all();

    /** The version new merchants are pinned to, and the one the stored objects and events are in. */
    public static final ApiVersion NEWEST = ALL.getLast();

    private ApiVersions() {
    }

    private static List<ApiVersion> all() {
        TreeSet<ApiVersion> versions = new TreeSet<>();
        versions.add(OLDEST);
        for (VersionChange change : CHANGES) {
            if (!OLDEST.isBefore(change.version())) {
                throw new IllegalStateException(change.getClass().getSimpleName() + " is not after " + OLDEST);
            }
            versions.add(change.version());
        }
        return List.copyOf(versions);
    }

    /** The changes oldest first (in the order listed within a version). */
    private static final List<VersionChange> SORTED = CHANGES.stream()
            .sorted(Comparator.comparing(VersionChange::version)).toList();

    /** Every change, oldest first (in the order listed within a version). */
    public static List<VersionChange> changes() {
        return SORTED;
    }

    /** The changes that came with this version. */
    public static List<VersionChange> changesIn(ApiVersion version) {
        return changes().stream().filter(c -> c.version().equals(version)).toList();
    }

    /** The changes an integration on {@code version} does not see, oldest first: what upgrading to the newest changes. */
    public static List<VersionChange> changesAfter(ApiVersion version) {
        return changes().stream().filter(c -> version.isBefore(c.version())).toList();
    }

    /** The version this text names, if Tender serves it. */
    public static Optional<ApiVersion> known(String text) {
        return ApiVersion.parse(text).filter(ALL::contains);
    }

    /**
     * The version a body names in {@code name} (null when absent); one the service does not know is recorded on
     * {@code in} as an invalid field naming the versions.
     */
    public static ApiVersion read(JsonInput in, String name, boolean required) {
        String text = in.string(name, required);
        ApiVersion version = text == null ? null : known(text).orElse(null);
        in.check(text == null || version != null, name, "must be one of " + knownList());
        return version;
    }

    /** The versions as a refusal lists them: {@code 2026-03-13, 2026-03-15, …}. */
    public static String knownList() {
        return ALL.stream().map(ApiVersion::wire).collect(Collectors.joining(", "));
    }

    /** Whether the change reads requests of this path (the path or anything under it). */
    static boolean touchesRequests(VersionChange change, String path) {
        return change.paths().stream().anyMatch(prefix -> path.equals(prefix) || path.startsWith(prefix + "/"));
    }

    /** Whether the change renders answers of this path: its own, and the event log's when it changes events. */
    static boolean touchesPath(VersionChange change, String path) {
        return touchesRequests(change, path)
                || (!change.eventTypes().isEmpty() && (path.equals("/events") || path.startsWith("/events/")));
    }

    /** Whether the change renders the payloads of events of this type. */
    static boolean touchesEvent(VersionChange change, String type) {
        for (String match : change.eventTypes()) {
            if (match.endsWith(".") ? type.startsWith(match) : type.equals(match)) {
                return true;
            }
        }
        return false;
    }

    /** The changes that render an answer of {@code path} down to {@code version}, newest first; empty for most. */
    static List<VersionChange> renderingAnswers(ApiVersion version, String path) {
        return after(version, change -> touchesPath(change, path)).reversed();
    }

    /** The changes that render an event of {@code type} down to {@code version}, newest first. */
    static List<VersionChange> renderingEvents(ApiVersion version, String type) {
        return after(version, change -> touchesEvent(change, type)).reversed();
    }

    /** The changes that read a request to {@code path} up from {@code version}, oldest first. */
    static List<VersionChange> readingRequests(ApiVersion version, String path) {
        return after(version, change -> touchesRequests(change, path));
    }

    /** The changes newer than {@code version} that {@code touch}, oldest first. */
    private static List<VersionChange> after(ApiVersion version, Predicate<VersionChange> touch) {
        List<VersionChange> applying = new ArrayList<>();
        for (VersionChange change : SORTED) {
            if (version.isBefore(change.version()) && touch.test(change)) {
                applying.add(change);
            }
        }
        return applying;
    }
}
