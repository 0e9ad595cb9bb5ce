import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Package-time step (pom.xml, exec-maven-plugin at {@code package}, run by the build's own JDK through the toolchain):
 * makes {@code target/tender/}, the service in a launchable form that starts warm.
 *
 * <pre>
 *   target/tender/tender.jar, lib/   the jar extracted (java -Djarmode=tools -jar tender.jar extract): a cache only
 *                                    covers classes loaded from plain jars, never from jars nested in the fat jar
 *   target/tender/tender.aot         JDK 24+: the ahead-of-time cache (JEP 483, 514, 515) of a training run
 *   target/tender/tender.jsa         JDK 21-23: a CDS archive of the same training run instead
 *   target/tender/bin/tender         the launcher: the build's java with the cache, arguments passed through
 * </pre>
 *
 * The training run starts the service on free ports, on a throwaway data directory (target/aot-training, deleted
 * afterwards) with one bootstrap test key of its own (so no default merchant and no key is printed), and with every
 * TENDER_/SPRING_/SERVER_/MANAGEMENT_ variable of the caller removed (it never reaches a configured database, Kafka or
 * mail server). It drives sandbox redemptions and payment sessions over HTTP, so the cache also holds the classes
 * and method profiles (JEP 515) of the request path, then stops the service with SIGTERM: the JVM writes the cache
 * as it exits. Its output goes to target/aot-training.log.
 *
 * Never fails the build for the cache's sake: with no cache the launcher starts the service plainly. A training of
 * the same jar bytes (reproducible builds) with the same java is not repeated.
 *
 * Arguments: the fat jar, the output directory, the number of training rounds (a round: a redemption, its read, a
 * payment session, its read). Environment: TENDER_AOT_MODE=aot|cds|none overrides the choice by JDK version.
 */
public class AotTraining {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path out = Path.of(args[1]).toAbsolutePath();
        int rounds = Integer.parseInt(args[2]);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int feature = Runtime.version().feature();
        String mode = System.getenv().getOrDefault("TENDER_AOT_MODE", feature >= 24 ? "aot" : "cds");
        Path stamp = out.resolve(".trained");
        String wanted = String.join("\n", sha256(jar), java, Runtime.version().toString(), mode,
                Integer.toString(rounds));
        if (Files.exists(stamp) && Files.readString(stamp).equals(wanted) && Files.exists(out.resolve("bin/tender"))) {
            say("target/tender is up to date with this jar and java; no new training run");
            // ./tender compares the sources' times with this file's: built now, up to date now
            Files.setLastModifiedTime(stamp, FileTime.from(Instant.now()));
            return;
        }

        deleteTree(out);
        Path target = jar.getParent();
        run(target.resolve("aot-extract.log"), out.getParent(), java, "-Djarmode=tools", "-jar", jar.toString(),
                "extract", "--destination", out.toString());
        Path cache = null;
        if (mode.equals("aot") || mode.equals("cds")) {
            Instant started = Instant.now();
            cache = train(java, feature, mode, out, rounds, target);
            say(cache == null ? "no cache made (see " + target.resolve("aot-training.log")
                    + "); the launcher starts without one"
                    : "cache " + out.relativize(cache) + " (" + Files.size(cache) / (1 << 20) + " MiB) made in "
                    + Duration.between(started, Instant.now()).toSeconds() + " s");
        } else {
            say("TENDER_AOT_MODE=" + mode + ": no cache");
        }
        writeLauncher(out, java, cache);
        Files.writeString(stamp, wanted);
    }

    /** The training run; answers the cache file, or null when none was made. */
    private static Path train(String java, int feature, String mode, Path out, int rounds, Path target)
            throws Exception {
        Path data = target.resolve("aot-training");
        deleteTree(data);
        Path log = target.resolve("aot-training.log");
        Path cache = out.resolve(mode.equals("aot") ? "tender.aot" : "tender.jsa");
        Path config = out.resolve("tender.aotconf");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m"));
        if (mode.equals("cds")) {
            command.add("-XX:ArchiveClassesAtExit=" + cache);
        } else if (feature >= 25) {
            command.add("-XX:AOTCacheOutput=" + cache);
        } else {
            command.addAll(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + config));
        }
        command.addAll(List.of("-jar", out.resolve("tender.jar").toString()));
        int port = freePort();
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String key = "sk_test_" + HexFormat.of().formatHex(secret);
        var builder = new ProcessBuilder(command).directory(out.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> Stream.of("TENDER_", "SPRING_", "SERVER_", "MANAGEMENT_",
                "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS").anyMatch(name::startsWith));
        builder.environment().put("TENDER_DATA_DIR", data.toString());
        builder.environment().put("TENDER_BOOTSTRAP_KEYS", "aot-training:" + key);
        builder.environment().put("SERVER_PORT", Integer.toString(port));
        builder.environment().put("MANAGEMENT_SERVER_PORT", Integer.toString(freePort()));
        say("training run: " + rounds + " rounds of requests (log: " + log + ")");
        Process service = builder.start();
        try {
            if (awaitHealthy(service, Integer.parseInt(builder.environment().get("MANAGEMENT_SERVER_PORT")))) {
                drive("http://127.0.0.1:" + port, key, rounds);
            }
        } finally {
            service.destroy(); // SIGTERM: a graceful shutdown, then the JVM writes the cache as it exits
            if (!service.waitFor(10, TimeUnit.MINUTES)) {
                service.destroyForcibly();
            }
            stopOrphanedPostgres(data);
            deleteTree(data);
        }
        if (mode.equals("aot") && feature < 25 && Files.exists(config)) {
            run(log, out, java, "-XX:AOTMode=create", "-XX:AOTConfiguration=" + config, "-XX:AOTCache=" + cache,
                    "-jar", out.resolve("tender.jar").toString());
            Files.deleteIfExists(config);
        }
        return Files.exists(cache) ? cache : null;
    }

    private static boolean awaitHealthy(Process service, int managementPort) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        var health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).build();
        while (Instant.now().isBefore(deadline) && service.isAlive()) {
            try {
                if (HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return true;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        say("the training run's service did not become healthy");
        return false;
    }

    /** Sandbox redemptions and payment sessions, each read back, from four clients at once. */
    private static void drive(String base, String key, int rounds) throws InterruptedException {
        String nonce = String.format("%06d", new SecureRandom().nextInt(1_000_000));
        var refused = new AtomicInteger();
        var next = new AtomicInteger();
        try (var clients = Executors.newFixedThreadPool(4)) {
            for (int c = 0; c < 4; c++) {
                clients.submit(() -> {
                    for (int n = next.getAndIncrement(); n < rounds; n = next.getAndIncrement()) {
                        String digits = String.format("%09d", n);
                        String redemption = post(base, key, "/collect/redemptions", "aot-r-" + nonce + digits,
                                "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"" + nonce + digits + "7\"}}",
                                refused);
                        get(base, key, "/collect/redemptions/" + id(redemption), refused);
                        String session = post(base, key, "/collect/payment_sessions", "aot-s-" + nonce + digits,
                                "{\"amount\":" + (1000 + n) + ",\"currency\":\"ZAR\",\"external_reference\":\"aot-"
                                        + n + "\",\"options\":{\"checkout_options\":{\"return_url\":"
                                        + "\"http://localhost/done\"}}}", refused);
                        get(base, key, "/collect/payment_sessions/" + id(session), refused);
                    }
                    return null;
                });
            }
        }
        if (refused.get() > 0) {
            say(refused.get() + " of " + rounds * 4 + " training requests were not answered as expected");
        }
    }

    private static String post(String base, String key, String path, String idempotencyKey, String body,
                               AtomicInteger refused) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(body)), 201, refused);
    }

    private static void get(String base, String key, String path, AtomicInteger refused) {
        send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key), 200, refused);
    }

    private static String send(HttpRequest.Builder request, int expected, AtomicInteger refused) {
        try {
            var response = HTTP.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expected) {
                refused.incrementAndGet();
            }
            return response.body();
        } catch (IOException e) {
            refused.incrementAndGet();
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The "id" of a JSON answer (the first one: the object's own), or "missing". */
    private static String id(String json) {
        int at = json.indexOf("\"id\":\"");
        return at < 0 ? "missing" : json.substring(at + 6, json.indexOf('"', at + 6));
    }

    private static void writeLauncher(Path out, String java, Path cache) throws IOException {
        String template;
        try (InputStream in = Files.newInputStream(Path.of(System.getProperty("tender.launcher.template")))) {
            template = new String(in.readAllBytes());
        }
        String flag = cache == null ? ""
                : cache.getFileName().toString().endsWith(".aot") ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=";
        Path launcher = Files.createDirectories(out.resolve("bin")).resolve("tender");
        Files.writeString(launcher, template.replace("@JAVA@", java)
                .replace("@CACHE@", cache == null ? "" : cache.getFileName().toString()).replace("@FLAG@", flag));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A JVM that died without its shutdown leaves the embedded PostgreSQL running on the throwaway directory. */
    private static void stopOrphanedPostgres(Path data) {
        Path pid = data.resolve("postgres/postmaster.pid");
        try {
            if (Files.exists(pid)) {
                ProcessHandle.of(Long.parseLong(Files.readAllLines(pid).getFirst().trim()))
                        .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false))
                        .ifPresent(p -> {
                            p.destroy();
                            p.onExit().join();
                        });
            }
        } catch (IOException | RuntimeException e) {
            say("could not stop the training's PostgreSQL: " + e);
        }
    }

    private static void run(Path log, Path directory, String... command) throws Exception {
        Files.createDirectories(directory);
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed; see " + log);
        }
    }

    private static String sha256(Path file) throws Exception {
        var digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int read; (read = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, read);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static void say(String message) {
        System.out.println("[aot] " + message);
    }
}
