"""Bulk import through the CLI against Python's sqlite3, in the same run, from the same files.

The workload is `pawtrail-bench generate --events N --per-commit 10000 --expected-versions` (the realistic JSON of
tools/bench, with UUIDs), cut into 10,000-line files. Ours: each file is one `pawtrail log append --batch FILE`
process, in order, into a new store; the rate counts every process's whole wall time, JSON parsing included.
The peer: this Python process reads the same files, parses each line with json.loads and inserts them with
`executemany` into an SQLite table (WAL, synchronous=FULL, UNIQUE(stream, version)), one transaction per file, the
way a user would script it. Both sides run one after the other, never at once, on the same disk.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import time

import proc
from stores import log

PER_FILE = 10_000
# What a user's script would write: compact JSON text of each event's data and metadata.
ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def _du(path):
    return int(subprocess.run(["du", "-sb", path], check=True, capture_output=True, text=True).stdout.split()[0])


def _workload(bins, events, directory):
    """The JSON Lines workload and its 10,000-line pieces."""
    if os.path.exists(directory):
        shutil.rmtree(directory)
    parts = os.path.join(directory, "parts")
    os.makedirs(parts)
    whole = os.path.join(directory, "workload.jsonl")
    with open(whole, "wb") as out:
        subprocess.run([bins["pawtrail-bench"], "generate", "--events", str(events), "--per-commit", str(PER_FILE),
                        "--expected-versions"], check=True, stdout=out, stderr=subprocess.DEVNULL)
    files = []
    with open(whole, "rb") as f:
        chunk = []
        for raw in f:
            chunk.append(raw)
            if len(chunk) == PER_FILE:
                files.append(_write_part(parts, len(files), chunk))
                chunk = []
        if chunk:
            files.append(_write_part(parts, len(files), chunk))
    return whole, files


def _write_part(parts, n, lines):
    path = os.path.join(parts, f"part-{n:05d}.jsonl")
    with open(path, "wb") as f:
        f.writelines(lines)
    return path


def _ours(pawtrail, store, files):
    seconds, peak = 0.0, 0
    for path in files:
        r = proc.run([pawtrail, "--store", store, "log", "append", "--batch", path])
        if not r.ok:
            return {"status": "failed", "error": f"{os.path.basename(path)}: {r.error()}"}
        seconds += r.seconds
        peak = max(peak, r.maxrss_kb)
    return {"status": "ok", "seconds": seconds, "rss_mb": peak / 1024, "bytes": _du(store)}


def _sqlite(db_path, files):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.unlink(db_path + suffix)
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE events(global_position INTEGER PRIMARY KEY, stream TEXT, version INTEGER, type TEXT, "
               "data TEXT, metadata TEXT, event_id TEXT, UNIQUE(stream, version))")
    versions, position, seconds = {}, 0, 0.0
    for path in files:
        start = time.perf_counter()
        rows = []
        with open(path, "rb") as f:
            for raw in f:
                if not raw.strip():
                    continue
                e = json.loads(raw)
                expected = e.get("expectedVersion")
                version = expected + 1 if isinstance(expected, int) else versions.get(e["stream"], -1) + 1
                versions[e["stream"]] = version
                rows.append((position, e["stream"], version, e["type"], ENCODE(e.get("data")),
                             ENCODE(e.get("metadata")), e.get("eventId")))
                position += 1
        db.execute("BEGIN")
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        db.execute("COMMIT")
        seconds += time.perf_counter() - start
    # The size as it stands after the last commit: the database file and its WAL (not checkpointed away).
    size = sum(os.path.getsize(db_path + s) for s in ("", "-wal") if os.path.exists(db_path + s))
    count = db.execute("SELECT count(*) FROM events").fetchone()[0]
    db.close()
    return {"status": "ok", "seconds": seconds, "bytes": size, "rows": count}


def bench(bins, events, scratch):
    directory = os.path.join(scratch, "import")
    log(f"import: generating {events} events as JSON Lines, in {PER_FILE}-line files")
    whole, files = _workload(bins, events, directory)
    lines = sum(1 for _ in open(whole, "rb"))
    # The workload's files (twice the raw JSON) are written back before either side runs, and each side's writes
    # before the other starts: otherwise the side that runs first pays for writing back what was written before it.
    os.sync()
    log(f"import: {len(files)} files through `pawtrail log append --batch`")
    ours = _ours(bins["pawtrail"], os.path.join(directory, "store"), files)
    os.sync()
    log("import: the same files through Python's sqlite3")
    peer = _sqlite(os.path.join(directory, "events.sqlite"), files)
    raw = os.path.getsize(whole)
    out = {"events": lines, "files": len(files), "raw_bytes": raw, "ours": ours, "sqlite": peer}
    if ours["status"] == "ok":
        ours["rate"] = lines / ours["seconds"]
        peer["rate"] = lines / peer["seconds"]
        out["ratio"] = ours["rate"] / peer["rate"]
        out["raw_over_ours"] = raw / ours["bytes"]
        out["sqlite_over_ours"] = peer["bytes"] / ours["bytes"]
        log(f"import: ours {ours['rate']:.0f} events/s, sqlite3 {peer['rate']:.0f} events/s")
    shutil.rmtree(os.path.join(directory, "parts"), ignore_errors=True)
    return out
