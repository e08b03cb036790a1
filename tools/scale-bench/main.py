"""tools/scale-bench.sh: commands, views, time travel, the open cost, rebuilds, exec and bulk import, through the CLI,
on a fresh store and on seeded stores of growing size: the performance claim of issue 18, measured the way a user
meets it (each figure a whole process), every figure from this run.

Run through tools/scale-bench.sh, which builds the binaries and passes --bin.
"""

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys

import proc

# The helper that spawns every measured process forks now, while this process is small (see proc).
proc.start()

import commands  # noqa: E402
import execbench  # noqa: E402
import fixtures  # noqa: E402
import importbench  # noqa: E402
import postgres  # noqa: E402
import rebuildbench  # noqa: E402
import report  # noqa: E402
import stores  # noqa: E402
import views  # noqa: E402

SECTIONS = ["commands", "views", "open", "rebuild", "exec", "import"]


def parse(argv):
    p = argparse.ArgumentParser(prog="tools/scale-bench.sh", description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, action="append", default=[],
                   help="also measure a seeded store of N events (repeatable; --events 10000000 adds 10M)")
    p.add_argument("--sizes", default="fresh,200k,2m", help="stores to measure: fresh and event counts such as "
                   "200k, 2m, 10m (default fresh,200k,2m)")
    p.add_argument("--runs", type=int, default=15, help="timed runs of each command and view (default 15)")
    p.add_argument("--rebuild-runs", type=int, default=3, help="rebuilds of each seeded store, each on a fresh copy "
                   "(default 3)")
    p.add_argument("--exec-commands", type=int, default=100_000, help="commands in the exec script (default 100000)")
    p.add_argument("--import-events", type=int, default=500_000, help="events of the bulk import (default 500000)")
    p.add_argument("--dir", default="./.scratch/scale-bench", help="scratch directory (default ./.scratch/scale-bench)")
    p.add_argument("--json", action="store_true", help="one JSON object of everything on stdout, the tables on stderr")
    p.add_argument("--commands", default="", help="only these commands, comma-separated (default: every one)")
    p.add_argument("--sections", default=",".join(SECTIONS), help=f"what to run (default {','.join(SECTIONS)})")
    p.add_argument("--keep", action="store_true", help="keep the working copies of the stores")
    p.add_argument("--skip-build", action="store_true", help="use the binaries as built (handled by the script)")
    p.add_argument("--bin", default="./.build/release", help="directory of the release binaries")
    p.add_argument("--postgres", metavar="URL", help="also measure each seeded store's commands and views migrated into "
                   "this PostgreSQL server (a new database each), beside the file store")
    a = p.parse_args(argv)
    try:
        sizes = [stores.parse_size(s) for s in a.sizes.split(",") if s.strip()] + a.events
    except ValueError as e:
        p.error(str(e))
    a.sizes = sorted(set(sizes))
    a.sections = [s.strip() for s in a.sections.split(",") if s.strip()]
    unknown = set(a.sections) - set(SECTIONS)
    if unknown or a.runs < 1 or a.rebuild_runs < 1 or a.exec_commands < 1 or a.import_events < 1:
        p.error(f"unknown sections {sorted(unknown)}" if unknown else "counts must be at least 1")
    return a


def _output(*argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def machine():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), None)
    mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
    dirty = _output("git", "status", "--porcelain", "--untracked-files=no")
    return {"date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "nproc": int(_output("nproc") or os.cpu_count()), "cpu": cpu, "memory_gb": round(mem / 1024 ** 2, 1),
            "kernel": platform.platform(), "load_start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "commit": (_output("git", "rev-parse", "--short", "HEAD") or "?") + (" (modified)" if dirty else ""),
            "python": platform.python_version()}


def measure_store(a, bins, events, data):
    """Commands, views and the open cost on one store; returns what exec needs to run on it."""
    label = stores.size_label(events)
    scratch = os.path.join(a.dir, "stores", label)
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    os.makedirs(scratch)
    ctx = stores.Ctx(label, events, os.path.join(scratch, "store"), bins, scratch)
    if events == 0:
        stores.seed_fresh(ctx)
        fixtures.discover_fresh(ctx)
        source, manifest = ctx.templates["seeded"], None
    else:
        source, manifest = stores.workload_store(bins, events, a.dir)
        stores.log(f"{label}: copying {source}")
        stores.copy_store(source, ctx.store)
        if "open" in a.sections:
            # Before anything appends: as generated, the active segment's checkpoint lags behind its end (the
            # generator does not keep it current), and an append writes a current one. Both are measured.
            data["open"][f"{label} as generated"] = views.open_cost(ctx, a.runs)
            _log_open(data, f"{label} as generated")
        source, built = stores.warm_template(bins, source, a.dir, label)
        data.setdefault("setup", {})[label] = {"snapshots_build": built}
        stores.copy_store(source, ctx.store)
        fixtures.discover(ctx)
    data["stores"][label] = {"events": events, "source": source, "clock_start": stores.iso(ctx.base),
                             "subjects": {k: v for k, v in ctx.subjects.items() if k != "products"},
                             "products": ctx.subjects["products"][:6],
                             "manifest": manifest and {k: manifest[k] for k in ("events", "customers", "orders",
                                                                                "pets", "daysSimulated")}}
    if "commands" in a.sections:
        only = {c.strip() for c in a.commands.split(",") if c.strip()}
        data["commands"][label] = commands.measure_all(ctx, a.runs, only or None)
    if "views" in a.sections:
        live, travel, asked = views.measure_all(ctx, a.runs)
        data["views"][label] = {"live": live, "at_position": travel, "asked": asked}
    if "open" in a.sections:
        data["open"][label] = views.open_cost(ctx, a.runs)
        _log_open(data, label)
    if a.postgres and events > 0 and set(a.sections) & {"commands", "views", "rebuild"}:
        postgres.measure(a, bins, label, events, source, scratch, data)
    if not a.keep:
        shutil.rmtree(ctx.store, ignore_errors=True)
    return (label, source, ctx.subjects["admin"], ctx.subjects["products"], ctx.base)


def _log_open(data, key):
    o = data["open"][key]
    stores.log(f"{key}: open {o['open_ms'] or 0:.1f} ms ({o['method']})")


def main(argv):
    a = parse(argv)
    bins = {name: os.path.abspath(os.path.join(a.bin, name))
            for name in ("pawtrail", "pawtrail-bench", "pawtrail-projections-bench")}
    missing = [b for b in bins.values() if not os.access(b, os.X_OK)]
    if missing:
        raise SystemExit(f"missing binaries: {', '.join(missing)} (run without --skip-build)")
    os.makedirs(a.dir, exist_ok=True)
    data = {"command": os.environ.get("SCALE_BENCH_COMMAND", "tools/scale-bench.sh " + " ".join(argv)),
            "machine": machine(), "labels": [stores.size_label(e) for e in a.sizes],
            "events": {stores.size_label(e): e for e in a.sizes}, "stores": {}, "commands": {}, "views": {},
            "open": {}, "settings": {"runs": a.runs, "exec_commands": a.exec_commands,
                                     "import_events": a.import_events, "rebuild_runs": a.rebuild_runs,
                                     "sizes": a.sizes, "sections": a.sections}}
    exec_targets = [measure_store(a, bins, events, data) for events in a.sizes
                    if set(a.sections) & {"commands", "views", "open", "exec"} or (a.postgres and "rebuild" in a.sections)]
    if "rebuild" in a.sections:
        data["rebuild"] = rebuildbench.bench(bins, a.sizes, a.rebuild_runs, a.dir)
    if "exec" in a.sections:
        refs, _ = report.reference_labels(data["labels"], data["events"])
        chosen = [t for t in exec_targets if t[0] == "fresh" or t[0] in refs]
        data["exec"] = execbench.bench(chosen, a.exec_commands, a.dir, bins["pawtrail"])
    if "import" in a.sections:
        data["import"] = importbench.bench(bins, a.import_events, a.dir)
    data["machine"]["load_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    table = report.markdown(data) + postgres.markdown(data)
    with open(os.path.join(a.dir, "last-run.json"), "w") as f:
        json.dump(data, f, indent=1, default=str)
    with open(os.path.join(a.dir, "last-run.md"), "w") as f:
        f.write(table)
    if a.json:
        sys.stderr.write(table)
        json.dump(data, sys.stdout, indent=1, default=str)
        print()
    else:
        sys.stdout.write(table)
    if not a.keep:
        shutil.rmtree(os.path.join(a.dir, "stores"), ignore_errors=True)
        shutil.rmtree(os.path.join(a.dir, "exec"), ignore_errors=True)
        shutil.rmtree(os.path.join(a.dir, "rebuild"), ignore_errors=True)
        shutil.rmtree(os.path.join(a.dir, "import"), ignore_errors=True)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    finally:
        proc.start().close()
