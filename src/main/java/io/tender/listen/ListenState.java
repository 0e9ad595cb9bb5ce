package io.tender.listen;

import io.tender.webhook.WebhookSigner;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code tender listen} keeps between runs, in one JSON file readable by its owner only: the signing secret
 * (made on the first run, the same on every later one, so a receiver's configuration keeps working) and the position
 * in the event log.
 *
 * <p>The position is a floor and the events seen at or after it. The event log lists events by id, and ids follow
 * the clock of the transaction that appended them, so an event whose transaction commits late can appear with a
 * smaller id than one already forwarded. Every poll therefore reads again from {@link #LATE_COMMITS} before the
 * newest event seen, and forwards what it has not seen; the floor moves up as events are seen. An event counts as seen
 * once the receiver answered 2xx for it (or the filter left it out), and the file is written before the next one is
 * sent: after a restart nothing acknowledged is sent again but for the one in flight (at least once).
 */
final class ListenState {

    /** How late an event's transaction may commit after its id was taken and still be forwarded. */
    static final Duration LATE_COMMITS = Duration.ofMinutes(2);

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int VERSION = 1;

    private final Path file;
    private final String signingSecret;
    private Instant floor;
    /** Event id to its created_at, for the events seen at or after the floor. */
    private final Map<String, Instant> seen;

    private ListenState(Path file, String signingSecret, Instant floor, Map<String, Instant> seen) {
        this.file = file;
        this.signingSecret = signingSecret;
        this.floor = floor;
        this.seen = seen;
    }

    /** The state kept in this file, or empty if there is none yet; a file that is not one is an error. */
    static java.util.Optional<ListenState> load(Path file) {
        if (!Files.exists(file)) {
            return java.util.Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(Files.readAllBytes(file));
            String secret = root.path("signing_secret").asString("");
            if (root.path("version").asInt() != VERSION || !secret.startsWith(WebhookSigner.SECRET_PREFIX)
                    || !root.path("floor").isString()) {
                throw new IllegalStateException("the state file " + file + " is not one of tender listen's; "
                        + "move it away or give another with --state");
            }
            Map<String, Instant> seen = new LinkedHashMap<>();
            root.path("seen").properties().forEach(e -> seen.put(e.getKey(), Instant.parse(e.getValue().asString())));
            return java.util.Optional.of(new ListenState(file, secret, Instant.parse(root.get("floor").asString()), seen));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state file " + file, e);
        } catch (JacksonException | java.time.format.DateTimeParseException e) {
            throw new IllegalStateException("the state file " + file + " is not one of tender listen's; move it away "
                    + "or give another with --state");
        }
    }

    /** A first run's state: a new signing secret, forwarding the events created from {@code floor} on. */
    static ListenState fresh(Path file, Instant floor) {
        return new ListenState(file, WebhookSigner.newSecret(), floor, new LinkedHashMap<>());
    }

    String signingSecret() {
        return signingSecret;
    }

    Path file() {
        return file;
    }

    /** Events created before this instant are never forwarded. */
    Instant floor() {
        return floor;
    }

    boolean seen(String eventId) {
        return seen.containsKey(eventId);
    }

    /** Marks the event as done; {@link #save} makes it last. */
    void markSeen(String eventId, Instant createdAt) {
        if (!createdAt.isBefore(floor)) {
            seen.put(eventId, createdAt);
        }
    }

    /** Moves the floor to {@link #LATE_COMMITS} before the newest event seen, forgetting the events below it. */
    void advanceFloor() {
        seen.values().stream().max(Instant::compareTo).map(newest -> newest.minus(LATE_COMMITS))
                .filter(candidate -> candidate.isAfter(floor))
                .ifPresent(candidate -> {
                    floor = candidate;
                    seen.values().removeIf(createdAt -> createdAt.isBefore(candidate));
                });
    }

    /**
     * Writes the state: to a new file readable and writable by its owner only, then moved over the old one, so a
     * crash leaves the old state or the new, never half of one. Plain streams rather than NIO channels, which would
     * abandon the write when the thread is interrupted (Ctrl-C) after the receiver has already answered.
     */
    void save() {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("signing_secret", signingSecret);
        root.put("floor", floor.toString());
        ObjectNode seenNode = root.putObject("seen");
        seen.forEach((id, createdAt) -> seenNode.put(id, createdAt.toString()));
        try {
            Path directory = file.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            Path temporary = directory.resolve(file.getFileName() + ".tmp");
            Files.deleteIfExists(temporary);
            try {
                Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(temporary);
            } catch (FileAlreadyExistsException e) {
                // another run between the delete and the create: it will be overwritten below
            }
            try (FileOutputStream out = new FileOutputStream(temporary.toFile())) {
                out.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
                out.getFD().sync();
            }
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state file " + file, e);
        }
    }
}
