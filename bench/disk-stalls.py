#!/usr/bin/env python3
"""How this machine's disk answers small synchronous writes, with nothing else running: 8 kB writes each followed by
fdatasync (what a PostgreSQL commit waits for), for some seconds. Prints the latency percentiles and every stall
over 20 ms with the second it happened in. See docs/PERFORMANCE.md, "Latency at half load".

    python3 bench/disk-stalls.py [seconds=20] [directory=/var/lib/postgresql]
"""
import os
import sys
import time

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20
directory = sys.argv[2] if len(sys.argv) > 2 else "/var/lib/postgresql"
path = os.path.join(directory, "tender-disk-stalls.bin")
fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
block = b"\0" * 8192
latencies, stalls = [], []
started = time.time()
try:
    i = 0
    while time.time() - started < seconds:
        t = time.perf_counter()
        os.pwrite(fd, block, (i % 2048) * 8192)
        os.fdatasync(fd)
        ms = (time.perf_counter() - t) * 1000
        latencies.append(ms)
        if ms > 20:
            stalls.append((int(time.time() - started), round(ms)))
        i += 1
finally:
    os.close(fd)
    os.unlink(path)
latencies.sort()
n = len(latencies)
pct = lambda p: latencies[min(n - 1, int(n * p))]
print(f"{n} writes+fdatasync in {seconds:.0f} s: p50 {pct(0.5):.2f} ms, p99 {pct(0.99):.2f} ms, "
      f"p99.9 {pct(0.999):.2f} ms, max {latencies[-1]:.1f} ms")
print(f"stalls over 20 ms (second: ms): {', '.join(f'{s}: {ms}' for s, ms in stalls) or 'none'}")
