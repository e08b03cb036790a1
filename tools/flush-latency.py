#!/usr/bin/env python3
"""The floor under a durable commit on this disk: overwrite N bytes of a pre-written file, then fdatasync, 2,000
times, and print the latency percentiles. One writer that waits for each commit can do no better than one of these
per commit, whatever the log does (README, Benchmark: why the batched 20x target is out of reach).

Usage: python3 tools/flush-latency.py [BYTES ...]   (default 4096 14000 96000; the file goes in ./.scratch)
"""
import os
import sys
import time


def measure(size: int, rounds: int = 2000) -> str:
    os.makedirs(".scratch", exist_ok=True)
    path = ".scratch/flush-latency.tmp"
    span = 64 << 20
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        # Written and flushed first: overwrites journal nothing, as the log's preallocated segments do.
        os.pwrite(fd, b"\0" * span, 0)
        os.fsync(fd)
        data = os.urandom(size)
        latencies = []
        offset = 0
        for _ in range(rounds):
            start = time.perf_counter_ns()
            os.pwrite(fd, data, offset)
            os.fdatasync(fd)
            latencies.append((time.perf_counter_ns() - start) / 1000)
            offset = (offset + size) % (span - size)
        latencies.sort()
        def at(q: float) -> float:
            return latencies[min(len(latencies) - 1, int(len(latencies) * q))]
        return f"{size} bytes overwrite + fdatasync: p10 {at(0.1):.0f} us, p50 {at(0.5):.0f} us, p99 {at(0.99):.0f} us ({rounds} rounds)"
    finally:
        os.close(fd)
        os.unlink(path)


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[1:]] or [4096, 14000, 96000]
    for s in sizes:
        print(measure(s))
