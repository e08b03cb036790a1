#!/usr/bin/env python3
"""Times whole commands side by side: each command run as its own process N times, the commands alternated round by
round (two warm-up rounds first, not counted), then each one's p50 and p90 wall milliseconds. For comparing two
builds, or two stores, by hand on the same machine in the same minutes:

  tools/cli-p50.py 15 "OLD --store S view cart --owner U --at-position P --json" \\
                      "NEW --store S view cart --owner U --at-position P --json"
"""
import math
import statistics
import subprocess
import sys
import time

if len(sys.argv) < 3 or not sys.argv[1].isdigit():
    sys.stderr.write(__doc__)
    sys.exit(64)
runs, commands = int(sys.argv[1]), sys.argv[2:]
times = {c: [] for c in commands}
for round_ in range(runs + 2):
    for c in commands:
        started = time.perf_counter()
        subprocess.run(c, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if round_ >= 2:
            times[c].append((time.perf_counter() - started) * 1000)
for c in commands:
    t = sorted(times[c])
    print(f"p50 {statistics.median(t):7.1f} ms  p90 {t[math.ceil(len(t) * 0.9) - 1]:7.1f} ms  {c}")
