package io.tender.listen;

import io.tender.apiversion.ApiVersion;
import io.tender.apiversion.ApiVersions;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code tender listen} was asked to do, read from its arguments ({@code --name value} or {@code --name=value})
 * and the environment ({@code TENDER_API_KEY}).
 *
 * @param since      on a first run, also forward the events of this long ago (null: only events after the start)
 * @param state      the state file (signing secret and position); null for the default one under {@code .tender/listen}
 * @param apiVersion the API version to render events in; null for the merchant's pinned one, as its webhooks
 */
record ListenOptions(URI forwardTo, String apiKey, URI baseUrl, EventFilter events, Duration since, Path state,
                     Duration interval, boolean live, ApiVersion apiVersion) {

    static final String DEFAULT_BASE_URL = "http://localhost:8080";
    static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

    static final String USAGE = """
            Usage: tender listen --forward-to URL [options]

            Forwards this merchant's events to a URL on your machine, signed as Tender's webhooks are
            (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature), at least once and in
            order, resuming where it stopped after a restart. It prints the whsec_ signing secret to
            verify them with.

              --forward-to URL   where to POST each event, e.g. http://localhost:3000/webhooks
              --api-key KEY      a secret key (sk_test_...); or set TENDER_API_KEY
              --base-url URL     the Tender service (default http://localhost:8080)
              --events LIST      only these types, comma-separated: redemption.confirmed,payment.*
              --since DURATION   on the first run, also forward the events of the last DURATION
                                 (30s, 10m, 2h, 7d); without it, only events after the start
              --state FILE       where the secret and position are kept
                                 (default .tender/listen/<mode>-<key fingerprint>.json)
              --interval DURATION  how often to ask for new events (default 1s)
              --api-version DATE the API version to render events in, e.g. 2026-06-01
                                 (default: your account's pinned version, as its webhooks)
              --live             allow a live key (sk_live_...): real customers' events to this machine
              -h, --help         this text

            Example:
              export TENDER_API_KEY=sk_test_...
              tender listen --forward-to http://localhost:3000/webhooks --events 'redemption.*'
            """;

    private static final Set<String> WITH_VALUE = Set.of("--forward-to", "--api-key", "--base-url", "--events",
            "--since", "--state", "--interval", "--api-version");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    /** The outcome of reading the arguments. */
    sealed interface Parsed {
    }

    record Run(ListenOptions options) implements Parsed {
    }

    record Help() implements Parsed {
    }

    /** Arguments that cannot run; the message says which and what to do (never echoing a key). */
    record Invalid(String message) implements Parsed {
    }

    static Parsed parse(List<String> arguments, Map<String, String> environment) {
        Map<String, String> values = new HashMap<>();
        boolean live = false;
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (argument.equals("-h") || argument.equals("--help")) {
                return new Help();
            }
            if (argument.equals("--live")) {
                live = true;
                continue;
            }
            String name = argument;
            String value = null;
            int equals = argument.indexOf('=');
            if (argument.startsWith("--") && equals > 0) {
                name = argument.substring(0, equals);
                value = argument.substring(equals + 1);
            }
            if (!WITH_VALUE.contains(name)) {
                return new Invalid("unknown argument " + printable(name) + "; see tender listen --help");
            }
            if (value == null) {
                if (i + 1 >= arguments.size() || arguments.get(i + 1).startsWith("--")) {
                    return new Invalid(name + " needs a value; see tender listen --help");
                }
                value = arguments.get(++i);
            }
            if (values.put(name, value) != null) {
                return new Invalid(name + " is given twice");
            }
        }
        try {
            return new Run(options(values, environment, live));
        } catch (IllegalArgumentException e) {
            return new Invalid(e.getMessage());
        }
    }

    private static ListenOptions options(Map<String, String> values, Map<String, String> environment, boolean live) {
        String forwardTo = values.get("--forward-to");
        if (forwardTo == null || forwardTo.isBlank()) {
            throw new IllegalArgumentException("--forward-to URL is required: where to POST the events, for example "
                    + "--forward-to http://localhost:3000/webhooks");
        }
        String apiKey = values.getOrDefault("--api-key", environment.get("TENDER_API_KEY"));
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("no API key: give --api-key sk_test_... or set TENDER_API_KEY "
                    + "(the service prints a test key when it starts)");
        }
        apiKey = apiKey.strip();
        if (!apiKey.startsWith("sk_")) {
            throw new IllegalArgumentException("the API key must be a secret key (sk_test_...): publishable keys "
                    + "cannot read the event log");
        }
        if (!apiKey.startsWith("sk_test_") && !live) {
            throw new IllegalArgumentException("this is a live key: its events are real customers'. Use a test key "
                    + "(sk_test_...), or add --live to forward live events to this machine");
        }
        return new ListenOptions(
                url("--forward-to", forwardTo),
                apiKey,
                url("--base-url", values.getOrDefault("--base-url", DEFAULT_BASE_URL)),
                values.containsKey("--events") ? EventFilter.parse(values.get("--events")) : EventFilter.ALL,
                values.containsKey("--since") ? duration("--since", values.get("--since")) : null,
                values.containsKey("--state") ? Path.of(values.get("--state")) : null,
                values.containsKey("--interval") ? duration("--interval", values.get("--interval")) : DEFAULT_INTERVAL,
                live,
                values.containsKey("--api-version") ? version(values.get("--api-version")) : null);
    }

    /** A version Tender serves; anything else names them (the service would refuse it too). */
    static ApiVersion version(String text) {
        return ApiVersions.known(text.strip()).orElseThrow(() -> new IllegalArgumentException("--api-version: "
                + printable(text) + " is not a version Tender serves: one of " + ApiVersions.knownList()));
    }

    /** An http(s) URL; {@code localhost:3000/hooks} is read as {@code http://localhost:3000/hooks}, as curl does. */
    static URI url(String option, String text) {
        String candidate = text.strip();
        if (!candidate.contains("://")) {
            candidate = "http://" + candidate;
        }
        try {
            URI uri = new URI(candidate);
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                throw new URISyntaxException(candidate, "not an http URL");
            }
            if (option.equals("--forward-to") && (uri.getRawPath() == null || uri.getRawPath().isEmpty())) {
                uri = new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), "/", uri.getQuery(), null);
            }
            return uri;
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalArgumentException(option + ": " + printable(text) + " is not an http or https URL "
                    + "such as http://localhost:3000/webhooks");
        }
    }

    /** {@code 30s}, {@code 10m}, {@code 2h}, {@code 7d}, {@code 500ms}, or ISO-8601 such as {@code PT10M}. */
    static Duration duration(String option, String text) {
        Matcher matcher = SHORT_DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        Duration duration;
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            duration = switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        } else {
            try {
                duration = Duration.parse(text.strip());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(option + ": " + printable(text) + " is not a duration such as 30s, "
                        + "10m, 2h or 7d");
            }
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(option + " must be more than zero");
        }
        return duration;
    }

    /** An argument as it may be shown back: short, one line, no control characters. */
    private static String printable(String text) {
        if (text.contains("sk_") || text.contains("pk_")) {
            return "(an API key; give it with --api-key or TENDER_API_KEY)";
        }
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 80 ? clean.substring(0, 80) + "..." : clean;
    }

    /** The key's mode as the state file's name and the start line say it. */
    String mode() {
        return apiKey.startsWith("sk_test_") ? "test" : "live";
    }

    @Override
    public String toString() {
        // Never the key.
        return "ListenOptions[forwardTo=" + forwardTo + ", baseUrl=" + baseUrl + ", events=" + events + "]";
    }
}
