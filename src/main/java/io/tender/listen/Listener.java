package io.tender.listen;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The loop: read the events created since the state's floor, forward each one not yet seen, oldest first, waiting
 * for the receiver to accept it (2xx) before the next; mark it seen and save; wait the interval; again.
 */
final class Listener {

    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration LONGEST_RETRY = Duration.ofSeconds(30);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final ListenOptions options;
    private final PrintStream out;
    private final PrintStream err;

    Listener(ListenOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    int run() {
        HttpClient http = HttpClient.newBuilder()
                // As the service's deliveries: HTTP/1.1, no redirects followed.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        try {
            EventFeed feed = new EventFeed(http, options.baseUrl(), options.apiKey(), options.apiVersion());
            ListenState state;
            String start;
            try {
                Path file = options.state() != null ? options.state() : defaultStateFile(options);
                Optional<ListenState> kept = ListenState.load(file);
                if (kept.isPresent()) {
                    state = kept.get();
                    feed.newest(); // the key and the service, checked before saying Ready
                    start = "Resuming after the events already forwarded (state in " + file + ")"
                            + (options.since() != null ? "; --since applies to a first run only" : "");
                } else {
                    state = firstRun(feed, file);
                    state.save();
                    start = (options.since() != null ? "Forwarding the events of the last " + options.since()
                            .toString().substring(2).toLowerCase() + ", then new ones" : "Forwarding events from now on")
                            + " (state in " + file + "; the next run resumes from there)";
                }
            } catch (EventFeed.FeedException e) {
                err.println("tender listen: " + e.getMessage());
                return 1;
            } catch (IllegalStateException | UncheckedIOException e) {
                err.println("tender listen: " + e.getMessage());
                return 1;
            }
            out.println("tender listen: " + options.mode() + "-mode events of " + options.baseUrl() + " to "
                    + options.forwardTo() + " (" + options.events() + ")" + inVersion(feed));
            out.println("Ready! Your webhook signing secret is " + state.signingSecret() + " (^C to quit)");
            out.println(start);
            out.flush();
            try {
                return loop(feed, state, new Forwarder(http, options.forwardTo(), state.signingSecret()));
            } catch (UncheckedIOException e) {
                // The state file could not be written: stop rather than forward events it would forget.
                err.println("tender listen: " + e.getMessage() + " (" + e.getCause().getClass().getSimpleName() + ")");
                return 1;
            }
        } catch (InterruptedException e) {
            out.println("Stopped. The next run resumes after the last event your receiver accepted.");
            return 0;
        } finally {
            // Not close(), which waits for exchanges in flight: Ctrl-C abandons them (the event is sent again).
            http.shutdownNow();
        }
    }

    /** The version the events come in, as far as the service has said it yet. */
    private String inVersion(EventFeed feed) {
        if (options.apiVersion() != null) {
            return ", in API version " + options.apiVersion().wire();
        }
        return feed.answeredVersion() == null ? ", in your pinned API version"
                : ", in API version " + feed.answeredVersion() + " (your pinned one; --api-version picks another)";
    }

    /** Where a first run starts: {@code --since} ago, or after every event that exists now. */
    private ListenState firstRun(EventFeed feed, Path file) throws EventFeed.FeedException, InterruptedException {
        if (options.since() != null) {
            return ListenState.fresh(file, Instant.now().minus(options.since()).truncatedTo(ChronoUnit.MILLIS));
        }
        Optional<EventFeed.Event> newest = feed.newest();
        if (newest.isEmpty()) {
            return ListenState.fresh(file, Instant.EPOCH);
        }
        ListenState state = ListenState.fresh(file, newest.get().createdAt().minus(ListenState.LATE_COMMITS));
        for (EventFeed.Event event : feed.since(state.floor())) {
            state.markSeen(event.id(), event.createdAt());
        }
        return state;
    }

    private int loop(EventFeed feed, ListenState state, Forwarder forwarder) throws InterruptedException {
        Duration wait = FIRST_RETRY;
        boolean lost = false;
        while (true) {
            List<EventFeed.Event> events;
            try {
                events = feed.since(state.floor());
            } catch (EventFeed.FeedException e) {
                if (!e.retry()) {
                    err.println("tender listen: " + e.getMessage());
                    return 1;
                }
                if (!lost) {
                    err.println("tender listen: " + e.getMessage() + "; trying again, nothing is skipped");
                    lost = true;
                }
                Thread.sleep(wait.toMillis());
                wait = longer(wait);
                continue;
            }
            if (lost) {
                out.println("tender listen: reading events again");
                lost = false;
            }
            wait = FIRST_RETRY;
            boolean changed = false;
            for (EventFeed.Event event : events) {
                if (state.seen(event.id()) || event.createdAt().isBefore(state.floor())) {
                    continue;
                }
                if (options.events().matches(event.type())) {
                    forward(forwarder, event);
                    state.markSeen(event.id(), event.createdAt());
                    state.save();
                    changed = false;
                } else {
                    state.markSeen(event.id(), event.createdAt());
                    changed = true;
                }
            }
            Instant floor = state.floor();
            state.advanceFloor();
            if (changed || !floor.equals(state.floor())) {
                state.save();
            }
            Thread.sleep(options.interval().toMillis());
        }
    }

    /** Sends until the receiver accepts (2xx), waiting longer after each refusal; later events wait their turn. */
    private void forward(Forwarder forwarder, EventFeed.Event event) throws InterruptedException {
        Duration wait = FIRST_RETRY;
        while (true) {
            Forwarder.Outcome outcome = forwarder.send(event);
            out.println(LocalDateTime.now().format(TIME) + "  --> " + event.type() + " [" + event.id() + "]  <-- ["
                    + outcome + "] POST " + options.forwardTo());
            if (outcome.delivered()) {
                return;
            }
            out.println("    not accepted: sending " + event.id() + " again in " + wait.toSeconds()
                    + "s (in order: later events wait, none is skipped)");
            out.flush();
            Thread.sleep(wait.toMillis());
            wait = longer(wait);
        }
    }

    private static Duration longer(Duration wait) {
        Duration doubled = wait.multipliedBy(2);
        return doubled.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : doubled;
    }

    /**
     * {@code .tender/listen/<mode>-<fingerprint>.json}: one position per service and key (the fingerprint is a
     * hash of both, never the key), next to the service's own data, so a reset of {@code .tender} resets it too.
     */
    static Path defaultStateFile(ListenOptions options) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (options.baseUrl() + " " + options.apiKey()).getBytes(StandardCharsets.UTF_8));
            return Path.of(".tender", "listen", options.mode() + "-" + HexFormat.of().formatHex(digest, 0, 6) + ".json");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
