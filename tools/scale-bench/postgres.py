"""The same commands and views on the same seeded store migrated into PostgreSQL (`--postgres URL`), beside the file
store in one run: issue 19's target that the CLI on PostgreSQL stays within 2x of the file store's p50.

Each seeded store (as measured on files: the generated log with the snapshots a store in use has) goes into a new
database of the server by `pawtrail store migrate` (its time reported), gets its snapshots from `pawtrail
snapshots build` as the file store did, and is then measured by the same harness code as the file store, on its own
subjects and pools found the same way.
"""

import json
import uuid

import commands
import fixtures
import proc
import stores
import views


def database_url(server, name):
    """The server URL with another database in its path."""
    scheme, rest = server.split("://", 1)
    path_start = rest.find("/")
    if path_start < 0:
        path_start = len(rest)
    query = rest.find("?", path_start)
    query = len(rest) if query < 0 else query
    return f"{scheme}://{rest[:path_start]}/{name}{rest[query:]}"


def measure(a, bins, label, events, source, scratch, data):
    name = "scale_" + label.lower() + "_" + uuid.uuid4().hex[:8]
    r = proc.run(["/usr/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", a.postgres, "-c", f"CREATE DATABASE {name}"])
    if not r.ok:
        raise stores.SetupError(f"CREATE DATABASE failed: {r.error()}")
    url = database_url(a.postgres, name)
    pg_label = f"{label}-pg"
    stores.log(f"{pg_label}: migrating {source} into the server")
    m = proc.run([bins["pawtrail"], "store", "migrate", "--from", source, "--to", url, "--batch", "10000", "--json"])
    if not m.ok:
        raise stores.SetupError(f"store migrate into PostgreSQL failed: {m.error()}")
    stores.log(f"{pg_label}: building the snapshots a store in use has")
    s = proc.run([bins["pawtrail"], "--store", url, "snapshots", "build", "--json"])
    if not s.ok:
        raise stores.SetupError(f"snapshots build on PostgreSQL failed: {s.error()}")
    out = {"database": name, "migrate_seconds": m.seconds, "migrate_rss_mb": m.maxrss_kb / 1024,
           "migrate": json.loads(m.stdout.decode().strip().splitlines()[-1]), "snapshots_seconds": s.seconds}
    ctx = stores.Ctx(pg_label, events, url, bins, scratch)
    fixtures.discover(ctx)
    if "commands" in a.sections:
        out["commands"] = commands.measure_all(ctx, a.runs)
    if "views" in a.sections:
        live, travel, asked = views.measure_all(ctx, a.runs)
        out["views"] = {"live": live, "at_position": travel, "asked": asked}
    if "rebuild" in a.sections:
        # Every projection rebuilt from the log, once on each store: a read of the whole log and the states written.
        out["rebuild"] = {}
        for side, store in (("file", ctx_file_store(a, label, scratch, source)), ("postgres", url)):
            r = proc.run([bins["pawtrail"], "--store", store, "projections", "rebuild", "--all", "--json"])
            out["rebuild"][side] = {"seconds": r.seconds, "rss_mb": r.maxrss_kb / 1024, "ok": r.ok,
                                    "events_per_second": events / r.seconds if r.ok and r.seconds else None}
            stores.log(f"{pg_label}: projections rebuild --all on {side}: {r.seconds:.1f} s")
    if not a.keep:
        proc.run(["/usr/bin/psql", "-X", "-q", a.postgres, "-c", f"DROP DATABASE IF EXISTS {name}"])
    data.setdefault("postgres", {})[label] = out


def ctx_file_store(a, label, scratch, source):
    """A fresh copy of the seeded store for the file side of the rebuild."""
    return stores.copy_store(source, f"{scratch}/rebuild-file")


def markdown(data):
    """One table per seeded store: each command and view's p50 on files and on PostgreSQL, and their ratio."""
    out = ""
    for label, pg in data.get("postgres", {}).items():
        rows, within, total = [], 0, 0
        pairs = [("command", data["commands"].get(label, {}), pg.get("commands", {}))]
        if "views" in pg:
            pairs.append(("view", data["views"].get(label, {}).get("live", {}), pg["views"]["live"]))
            pairs.append(("view --at-position", data["views"].get(label, {}).get("at_position", {}), pg["views"]["at_position"]))
        for kind, files, server in pairs:
            for name, f in files.items():
                p = server.get(name, {})
                if f.get("p50_ms") is None or p.get("p50_ms") is None:
                    continue
                ratio = p["p50_ms"] / f["p50_ms"]
                total += 1
                within += ratio <= 2
                rows.append(f"| {kind} `{name}` | {f['p50_ms']:.1f} / {f['p99_ms']:.1f} | {f.get('rss_mb', 0):.0f} "
                            f"| {p['p50_ms']:.1f} / {p['p99_ms']:.1f} | {p.get('rss_mb', 0):.0f} | "
                            f"{'' if ratio <= 2 else '**'}{ratio:.2f}x{'' if ratio <= 2 else '**'} |")
        rebuild = ""
        if "rebuild" in pg:
            rb = pg["rebuild"]
            rebuild = " `projections rebuild --all`: " + ", ".join(
                f"{side} {r['seconds']:.1f} s ({(r['events_per_second'] or 0):,.0f} events/s, {r['rss_mb']:.0f} MB)"
                for side, r in rb.items()) + "."
        out += (f"\n## {label}: the file store beside PostgreSQL (target: PostgreSQL p50 within 2x)\n\n"
                f"Migrated in {pg['migrate_seconds']:.1f} s ({pg['migrate_rss_mb']:.0f} MB resident), "
                f"snapshots built in {pg['snapshots_seconds']:.1f} s.{rebuild} **{within} of {total} within 2x.**\n\n"
                "| what | file ms p50 / p99 | file MB | PostgreSQL ms p50 / p99 | PostgreSQL MB | PostgreSQL ÷ file |\n"
                "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    return out
