package io.tender.ratelimit;

import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.proxy.AbstractProxyManager;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.remote.CommandResult;
import io.github.bucket4j.distributed.remote.MutableBucketEntry;
import io.github.bucket4j.distributed.remote.Request;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Shared buckets for unit tests: a map in place of the table, one command at a time as the table's row lock makes
 * them, on the test's clock. Several {@link RateLimits} on one of these are instances on one database.
 */
final class SharedBucketsInMemory extends AbstractProxyManager<String> {

    private final Map<String, byte[]> rows = new HashMap<>();
    private int commands;

    SharedBucketsInMemory(TimeMeter clock) {
        super(ClientSideConfig.getDefault().withClientClock(clock));
    }

    int rows() {
        return rows.size();
    }

    /** Commands run so far: each is one transaction on the real table. */
    synchronized int commands() {
        return commands;
    }

    @Override
    protected synchronized <T> CommandResult<T> execute(String key, Request<T> request) {
        commands++;
        MutableBucketEntry entry = new MutableBucketEntry(rows.get(key));
        CommandResult<T> result = request.getCommand().execute(entry, currentTimeNanos());
        if (entry.isStateModified()) {
            rows.put(key, entry.getStateBytes(request.getBackwardCompatibilityVersion()));
        }
        return result;
    }

    @Override
    protected <T> CompletableFuture<CommandResult<T>> executeAsync(String key, Request<T> request) {
        throw new UnsupportedOperationException();
    }

    @Override
    protected CompletableFuture<Void> removeAsync(String key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized void removeProxy(String key) {
        rows.remove(key);
    }

    @Override
    public boolean isAsyncModeSupported() {
        return false;
    }
}
