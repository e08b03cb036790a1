"""`pawtrail projections rebuild --all --json` through the CLI on each seeded store, as a user runs it.

Every run gets its own `cp -r` of the generated store (a rebuild writes `projections/` into it), so each rebuilds
from nothing, as the first rebuild of a store does. The rate is the events read divided by the whole process's
wall time (start-up, opening the store and writing every state included); the engine's own figure (its JSON's
`eventsPerSecond`, timed from the start of the rebuild to the last state written) is reported beside it.
"""

import json
import os
import shutil

import proc
import stores
from stores import log

def _one(pawtrail, source, scratch):
    copy = stores.copy_store(source, os.path.join(scratch, "store"))
    r = proc.run([pawtrail, "--store", copy, "projections", "rebuild", "--all", "--json"])
    shutil.rmtree(copy, ignore_errors=True)
    if not r.ok:
        return {"ok": False, "error": r.error(), "seconds": r.seconds}
    answer = json.loads(r.stdout.decode().strip().splitlines()[-1])
    return {"ok": True, "seconds": r.seconds, "rss_mb": r.maxrss_kb / 1024, "events": answer["eventsRead"],
            "rate": answer["eventsRead"] / r.seconds, "engine_seconds": answer["seconds"],
            "engine_rate": answer["eventsPerSecond"], "load": os.getloadavg()[0]}


def bench(bins, sizes, runs, bench_dir):
    """Rebuilds of every seeded size in `sizes`, `runs` times each; the median run by rate is the figure."""
    out = {}
    for events in sizes:
        if events == 0:
            continue
        label = stores.size_label(events)
        source, _ = stores.workload_store(bins, events, bench_dir)
        scratch = os.path.join(bench_dir, "rebuild", label)
        results = []
        for n in range(runs):
            results.append(_one(bins["pawtrail"], source, scratch))
            r = results[-1]
            log(f"rebuild {label} run {n + 1}/{runs}: " + (f"{r['rate']:,.0f} events/s, {r['seconds']:.2f} s, "
                                                           f"{r['rss_mb']:.0f} MB" if r["ok"] else r["error"]))
        good = sorted((r for r in results if r["ok"]), key=lambda r: r["rate"])
        out[label] = {"events": events, "runs": results, "failed": len(results) - len(good),
                      "median": good[len(good) // 2] if good else None}
        shutil.rmtree(scratch, ignore_errors=True)
    return out
