package io.tender.listen;

import io.tender.webhook.WebhookSigner;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;

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
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Names to try for a temporary file before giving up: each taken one means someone planted a file there. */
    static final int TEMPORARY_ATTEMPTS = 10;

    private final Path file;
    private final String signingSecret;
    private Instant floor;
    /** Event id to its created_at, for the events seen at or after the floor. */
    private final Map<String, Instant> seen;
    /** The state file's name → a name for a temporary file beside it (random; a test chooses its own). */
    private UnaryOperator<String> temporaryNames = ListenState::randomTemporaryName;

    private ListenState(Path file, String signingSecret, Instant floor, Map<String, Instant> seen) {
        this.file = file;
        this.signingSecret = signingSecret;
        this.floor = floor;
        this.seen = seen;
    }

    /** For a test: the names {@link #save} tries for its temporary file, in place of random ones. */
    void temporaryNames(UnaryOperator<String> names) {
        this.temporaryNames = names;
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
     * Writes the state: to a new temporary file, then moved over the old one, so a crash leaves the old state or the
     * new, never half of one. The temporary file holds the signing secret, so it is created here, with an unpredictable
     * name, by one exclusive open ({@code CREATE_NEW}: never a file that exists, never through a symbolic link, which
     * counts as existing) that also gives it its permissions, readable and writable by its owner only, from its first
     * instant; the bytes go through that same open channel, and the move replaces the state file's name (a link
     * planted there is replaced, not followed).
     *
     * <p>The write runs on a thread of its own and is waited for even when this thread is interrupted: Ctrl-C
     * interrupts the listener, and an interrupted thread's file channel abandons its write, which after the receiver
     * has answered would send the event again.
     */
    void save() {
        byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson());
        try {
            CompletableFuture.runAsync(() -> write(bytes), runnable -> Thread.ofVirtual().name("tender-listen-save")
                    .start(runnable)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof UncheckedIOException io ? io
                    : new UncheckedIOException("cannot write the state file " + file, new IOException(e.getCause()));
        }
    }

    private ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("signing_secret", signingSecret);
        root.put("floor", floor.toString());
        ObjectNode seenNode = root.putObject("seen");
        seen.forEach((id, createdAt) -> seenNode.put(id, createdAt.toString()));
        return root;
    }

    private void write(byte[] bytes) {
        try {
            Path directory = file.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            Path temporary = createTemporary(directory, bytes);
            try {
                move(temporary);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(temporary);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state file " + file, e);
        }
    }

    private void move(Path temporary) throws IOException {
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * A new file in {@code directory} holding {@code bytes}, made by this call; a name that exists (a file or a link
     * someone planted) is left as it is and passed over for another.
     */
    private Path createTemporary(Path directory, byte[] bytes) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Path temporary = directory.resolve(temporaryNames.apply(file.getFileName().toString()));
            FileChannel created;
            try {
                created = open(temporary);
            } catch (FileAlreadyExistsException e) {
                if (attempt == TEMPORARY_ATTEMPTS) {
                    throw e;
                }
                continue;
            }
            try (FileChannel channel = created) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
                return temporary;
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(temporary);
                throw e;
            }
        }
    }

    private static FileChannel open(Path temporary) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
        try {
            return FileChannel.open(temporary, options, OWNER_ONLY);
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system (Windows): the file is new and the user's own, under the directory's ACL.
            return FileChannel.open(temporary, options);
        }
    }

    /** {@code listen.json} → {@code listen.json.<random>.tmp}: nobody can plant a link at a name not yet chosen. */
    private static String randomTemporaryName(String stateFileName) {
        byte[] random = new byte[12];
        RANDOM.nextBytes(random);
        return stateFileName + "." + HexFormat.of().formatHex(random) + ".tmp";
    }
}
