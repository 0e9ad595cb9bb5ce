package io.tender.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Requests released at the same instant, each from its own thread, as many tills or a client's eager retries send
 * them: the races the service must win.
 */
public final class AtOnce {

    private AtOnce() {
    }

    /** Sends {@code count} requests at once; the answers in the order of their index. */
    public static List<Api.Response> send(int count, IntFunction<Api.Response> request) {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Api.Response>> futures = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(count)) {
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(threads.submit(() -> {
                    start.await();
                    return request.apply(index);
                }));
            }
            start.countDown();
            List<Api.Response> responses = new ArrayList<>();
            for (Future<Api.Response> future : futures) {
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
}
