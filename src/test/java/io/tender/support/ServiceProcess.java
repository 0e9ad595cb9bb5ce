package io.tender.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The packaged service ({@code target/tender.jar}, built before the integration tests run) as a separate operating
 * system process, so a test can kill it with SIGKILL and start it again on the same data, exactly as an operator
 * would. Output goes to {@code target/processes/<name>-<n>.log}.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Path JAR = Path.of("target", "tender.jar");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    /** What starts it, before the arguments: java on the fat jar, or the packaged launcher. */
    private final List<String> launcher;
    private final List<String> arguments;
    private final Map<String, String> environment;
    private final int port;
    /** Where readiness is asked: the management port for the service, the simulator's own port for it. */
    private final int readyPort;
    private final String readyPath;
    private Process process;
    private Path log;
    private int starts;

    private ServiceProcess(String name, List<String> launcher, List<String> arguments, Map<String, String> environment, int port,
                           int readyPort, String readyPath) {
        this.name = name;
        this.launcher = launcher;
        this.arguments = arguments;
        this.environment = environment;
        this.port = port;
        this.readyPort = readyPort;
        this.readyPath = readyPath;
    }

    /**
     * The service on {@code port} with the given environment (data dir, keys, providers), and its management port
     * on a free port of its own (several processes run at once; the default 8081 would clash).
     */
    public static ServiceProcess service(String name, int port, Map<String, String> environment, String... arguments) {
        var env = new java.util.HashMap<>(environment);
        env.put("SERVER_PORT", Integer.toString(port));
        int managementPort = Integer.parseInt(env.computeIfAbsent("MANAGEMENT_SERVER_PORT", k -> Integer.toString(freePort())));
        return new ServiceProcess(name, javaOnJar(), List.of(arguments), env, port, managementPort, "/actuator/health");
    }

    /**
     * The service as {@code target/tender/bin/tender} starts it (the extracted jar with the build's AOT cache), with
     * the same environment as {@link #service}; JAVA_OPTS in it reaches the JVM.
     */
    public static ServiceProcess packagedLauncher(String name, int port, Map<String, String> environment) {
        ServiceProcess service = service(name, port, environment);
        return new ServiceProcess(name, List.of(Path.of("target", "tender", "bin", "tender").toString()), List.of(),
                service.environment, port, service.readyPort, service.readyPath);
    }

    private static List<String> javaOnJar() {
        return List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx512m", "-jar", JAR.toString());
    }

    /** The provider simulator on {@code port}. */
    public static ServiceProcess simulator(String name, int port, Map<String, String> environment) {
        var env = new java.util.HashMap<>(environment);
        env.put("SIMULATOR_PORT", Integer.toString(port));
        return new ServiceProcess(name, javaOnJar(), List.of("provider-simulator"), env, port, port, "/_ledger");
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String baseUrl() {
        return "http://localhost:" + port;
    }

    /** The base URL of its management port ({@code /actuator/*}). */
    public String managementUrl() {
        return "http://127.0.0.1:" + readyPort;
    }

    /** Starts the process and waits until it answers HTTP. */
    public ServiceProcess start() {
        launch();
        awaitReady(Duration.ofSeconds(180));
        return this;
    }

    /** How a process that was expected to stop on its own ended: its exit code and everything it printed. */
    public record Exit(int code, String output) {
    }

    /** Starts the process and waits for it to exit by itself (a refused start), at most {@code timeout}. */
    public Exit runToExit(Duration timeout) {
        Path log = launch();
        try {
            if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                close();
                throw new IllegalStateException(name + " was still running after " + timeout);
            }
            return new Exit(process.exitValue(), Files.readString(log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Path launch() {
        Path program = Path.of(launcher.getLast());
        if (!Files.exists(program)) {
            throw new IllegalStateException(program + " is missing: run the integration tests with ./mvnw verify");
        }
        List<String> command = new ArrayList<>(launcher);
        command.addAll(arguments);
        try {
            Path logs = Files.createDirectories(Path.of("target", "processes"));
            log = logs.resolve(name + "-" + (++starts) + ".log");
            File logFile = log.toFile();
            var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile);
            builder.environment().putAll(environment);
            process = builder.start();
            return log;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see target/processes");
            }
            try {
                var response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + readyPort + readyPath))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(250);
        }
        throw new IllegalStateException(name + " did not become ready in " + timeout);
    }

    /** Everything the current (or last) start printed so far. */
    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed; its embedded PostgreSQL is left running. */
    public void kill() {
        process.destroyForcibly();
        waitFor();
    }

    /** SIGTERM: a graceful stop, which also stops its embedded PostgreSQL. */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            waitFor();
        }
    }

    private void waitFor() {
        try {
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
