package io.tender;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * One bash for one tour, fed a piece of a block at a time, as a reader pastes them into one terminal. Its
 * {@code curl} is a function that records each answer's status and keeps the last answer's body, and otherwise
 * behaves as curl. Any command that fails is reported, not only the last one of a piece: bash runs with
 * {@code pipefail} and an {@code ERR} trap, so a command that exits non-zero (a missing program, 127; a {@code jq}
 * that cannot parse; a {@code grep} that finds nothing) is caught where a reader would see it fail, while the
 * conditions of {@code if}, {@code while} and {@code &&} stay conditions. Its own working folder, so files a tour
 * writes stay there.
 */
final class TourShell implements AutoCloseable {

    /**
     * What a piece did: everything it printed (the failure reports taken out), the status of each {@code curl} in
     * order, the body of the last one, and each command that failed with its exit status.
     */
    record Ran(String output, List<Integer> statuses, String answered, List<String> failures) {
    }

    private static final String END = "__TOUR_BLOCK_END__";
    private static final String EOF = "__TOUR_BASH_ENDED__";
    private static final String FAILED = "__TOUR_FAILED__ ";
    private static final Duration LONGEST = Duration.ofMinutes(2);

    /** What bash printed, line by line, read on a thread of its own so that a piece that hangs is given up. */
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Process bash;
    private final Writer in;
    private final Path statuses;
    private final Path body;

    TourShell(Path workDir, Map<String, String> environment) throws IOException {
        statuses = workDir.resolve(".statuses");
        body = workDir.resolve(".body");
        var builder = new ProcessBuilder("bash", "--noprofile", "--norc").directory(workDir.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(environment);
        builder.environment().put("HOME", workDir.toString());
        bash = builder.start();
        in = new OutputStreamWriter(bash.getOutputStream(), StandardCharsets.UTF_8);
        var out = new BufferedReader(new InputStreamReader(bash.getInputStream(), StandardCharsets.UTF_8));
        Thread.ofVirtual().start(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // bash was stopped
            }
            lines.add(EOF);
        });
        send("""
                TOUR_STATUSES=%s
                TOUR_BODY=%s
                curl() {
                  local headers rc
                  headers=$(mktemp)
                  command curl -D "$headers" "$@" | tee "$TOUR_BODY"; rc=${PIPESTATUS[0]}
                  awk 'toupper($1) ~ /^HTTP\\// { s = $2 } END { print (s == "" ? "000" : s) }' "$headers" >> "$TOUR_STATUSES"
                  rm -f "$headers"
                  return $rc
                }
                tour_failed() {
                  local status=$? command=$BASH_COMMAND
                  printf '\\n%%s%%s %%s\\n' '%s' "$status" "${command//$'\\n'/ }"
                }
                set -o pipefail
                trap tour_failed ERR
                """.formatted(statuses, body, FAILED));
    }

    /** Runs a piece of a block and answers what it did once it is done. */
    Ran run(String script) throws IOException {
        Files.deleteIfExists(statuses);
        Files.deleteIfExists(body);
        send(script);
        List<String> failures = new ArrayList<>();
        var output = new StringBuilder();
        for (String line : readUntilEnd().split("\n", -1)) {
            if (line.startsWith(FAILED)) {
                String[] report = line.substring(FAILED.length()).split(" ", 2);
                failures.add("exit " + report[0] + ": " + (report.length > 1 ? report[1] : ""));
            } else {
                output.append(line).append('\n');
            }
        }
        List<Integer> seen = Files.exists(statuses)
                ? Files.readAllLines(statuses).stream().map(Integer::parseInt).toList() : List.of();
        String answered = Files.exists(body) ? Files.readString(body) : "";
        return new Ran(output.toString().strip(), seen, answered, failures);
    }

    /** The value of a shell variable, as a browser step needs it. */
    String value(String variable) throws IOException {
        in.write("printf '%s\\n' \"$" + variable + "\"\n");
        in.flush();
        return readUntilEnd().strip();
    }

    private void send(String script) throws IOException {
        in.write(script);
        in.write("\n");
        in.flush();
    }

    private String readUntilEnd() throws IOException {
        in.write("printf '\\n" + END + "\\n'\n");
        in.flush();
        var text = new StringBuilder();
        long deadline = System.nanoTime() + LONGEST.toNanos();
        try {
            while (true) {
                String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    bash.destroyForcibly();
                    fail("a block ran longer than " + LONGEST.toMinutes() + " minutes; so far it printed:\n" + text);
                }
                if (line.equals(END)) {
                    return text.toString();
                }
                if (line.equals(EOF)) {
                    fail("bash ended; it printed:\n" + text);
                }
                text.append(line).append('\n');
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
        try {
            if (!bash.waitFor(10, TimeUnit.SECONDS)) {
                bash.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
