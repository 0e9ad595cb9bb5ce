package io.tender.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Requests released at the same instant, each from its own thread, as many tills or a client's eager retries send
 * them: the races the service must win.
 */
public final class AtOnce {

    private AtOnce() {
    }

    /** Sends {@code count} requests at once; the answers in the order of their index (any client's answers). */
    public static <T> List<T> send(int count, IntFunction<T> request) {
        return send(count, request, null);
    }

    /**
     * Sends {@code count} requests at once while {@code hold} keeps the one that gets to work from finishing, and
     * releases it only once every other request has answered: so every other answer was given while that one ran,
     * the overlap a race test claims. Fails if all {@code count} answered under the hold (it held nothing back), or if
     * the others did not answer within a minute.
     */
    public static List<Api.Response> sendWhileOneIsHeld(int count, IntFunction<Api.Response> request, SandboxHold hold) {
        try (hold) {
            return send(count, request, hold);
        }
    }

    private static <T> List<T> send(int count, IntFunction<T> request, SandboxHold hold) {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(count)) {
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(threads.submit(() -> {
                    start.await();
                    return request.apply(index);
                }));
            }
            start.countDown();
            if (hold != null) {
                try {
                    awaitAllButOne(futures);
                } finally {
                    hold.release(); // before the pool's close waits for the held request
                }
            }
            List<T> responses = new ArrayList<>();
            for (Future<T> future : futures) {
                responses.add(future.get());
            }
            return responses;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the requests ran", e);
        } catch (ExecutionException e) {
            throw new AssertionError("a request failed", e.getCause());
        }
    }

    private static void awaitAllButOne(List<? extends Future<?>> futures) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        long done;
        while ((done = futures.stream().filter(Future::isDone).count()) < futures.size() - 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(done + " of " + futures.size() + " requests answered while one was held");
            }
            Thread.sleep(10);
        }
        if (done == futures.size()) {
            throw new AssertionError("every request answered while one was to be held: the hold held nothing back");
        }
    }
}
