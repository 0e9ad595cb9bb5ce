package io.tender.listen;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code tender listen}: the launcher's entry ({@code java -jar tender.jar listen ...}, {@code ./tender listen ...}),
 * started without the service's Spring context. It runs until Ctrl-C, which stops it between two steps: an event
 * the receiver has not accepted yet is sent again by the next run.
 */
public final class Listen {

    public static final String COMMAND = "listen";

    private Listen() {
    }

    /**
     * Runs with the process's environment and console until Ctrl-C (then it returns 0 once stopped) or an error it
     * cannot wait out (1), or bad arguments (2). The launcher exits with what it returns.
     */
    public static int run(String... arguments) {
        Thread worker = Thread.currentThread();
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C runs the shutdown hooks: interrupt the listener and give it a moment to finish the step it is in.
        Thread hook = new Thread(() -> {
            worker.interrupt();
            try {
                stopped.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tender-listen-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run(List.of(arguments), System.getenv(), System.out, System.err);
        } finally {
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down (Ctrl-C): the hook is running
            }
        }
    }

    /**
     * Runs on the calling thread with this environment and these streams, until the thread is interrupted (then
     * returns 0), an error it cannot wait out (1), or bad arguments (2).
     */
    public static int run(List<String> arguments, Map<String, String> environment, PrintStream out, PrintStream err) {
        return switch (ListenOptions.parse(arguments, environment)) {
            case ListenOptions.Help help -> {
                out.print(ListenOptions.USAGE);
                yield 0;
            }
            case ListenOptions.Invalid invalid -> {
                err.println("tender listen: " + invalid.message());
                err.println("Run tender listen --help for usage.");
                yield 2;
            }
            case ListenOptions.Run run -> new Listener(run.options(), out, err).run();
        };
    }
}
