"""Every view, live and (entity views) as of the middle of the log, each run through the CLI as its own process.

The view list is the CLI's own (`pawtrail view --help`). Each view runs once untimed first: on a store that has
never been read, that first run catches the projection up from the start of the log, which is a rebuild, not a
view; it is reported apart (`catch_up_ms`). Entity views ask for the store's busiest subject (the longest cart, the
pet with the longest history...); time travel asks, at position P = half the log, for the busiest subject among the
events just before P, so the entity exists at P.
"""

import json

import proc
from fixtures import entities, window, mid_entities
from stores import log

# The option naming each entity view's entity, and which subject it takes.
ENTITY_VIEWS = {
    "cart": ("--owner", "customer"),
    "orders": ("--customer", "customer"),
    "order": ("--id", "order"),
    "activity": ("--user", "customer"),
    "pet": ("--id", "pet"),
    "pets": ("--owner", "owner"),
    "conversations": ("--user", "conversation_owner"),
    "favourites": ("--user", "customer"),
    "customer": ("--id", "customer"),
    "conversation": ("--id", "conversation"),
}
SHOP_VIEWS = {"inventory", "low-stock", "catalog", "dashboard", "sales", "fulfilment", "customers", "services", "reminders",
              "outbox"}


def _shop_arguments(ctx, name):
    """What a whole-shop view is asked: the agenda the day of the business clock, a product page the busiest product."""
    if name == "agenda":
        return ["--day", ctx.clock()[:10]]
    if name == "product":
        return ["--id", ctx.subjects["products"][0]]
    return []
NO_SUBJECT = {"status": "no-subject", "note": "the store has no such entity to ask for", "catch_up_ms": 0}


def view_list(pawtrail):
    """The SUBCOMMANDS of `pawtrail view --help`."""
    r = proc.run([pawtrail, "view", "--help"])
    names, inside = [], False
    for raw in r.stdout.decode().splitlines():
        if raw.startswith("SUBCOMMANDS:"):
            inside = True
        elif inside and not raw.strip() and names:
            break
        elif inside and raw.startswith("  ") and not raw.startswith("   "):
            names.append(raw.split()[0])
    return names


def last_position(ctx):
    last = ctx.read_json_lines("log", "read", "--all", "--backward", "--limit", "1")
    return last[0]["position"] if last else -1


def _measure(ctx, argv, runs):
    warm = proc.run(argv)
    results = [proc.run(argv) for _ in range(runs)]
    out = proc.summary(results)
    out["catch_up_ms"] = warm.seconds * 1000
    if not warm.ok:
        out["catch_up_error"] = warm.error()
    out["bytes"] = len(results[-1].stdout) if results else None
    out["status"] = "ok" if out["ok"] == runs else "failed"
    return out


def measure_all(ctx, runs):
    """Every view on ctx's store: {name: result}, {name: time-travel result}, and what they asked for."""
    live_subjects = entities(ctx, window(ctx, 100_000)[0], {ctx.subjects["admin"], ctx.subjects["staff"]})
    mid = (last_position(ctx) + 1) // 2
    mid_subjects = mid_entities(ctx, mid)
    live, travel, asked = {}, {}, {"position": mid, "live": {}, "at_position": {}}
    for name in view_list(ctx.pawtrail):
        base = [ctx.pawtrail, "--store", ctx.store, "view", name]
        if name in ENTITY_VIEWS:
            option, subject = ENTITY_VIEWS[name]
            entity = live_subjects.get(subject) or ctx.subjects.get(subject)
            asked["live"][name] = entity
            live[name] = _measure(ctx, base + [option, entity, "--json"], runs) if entity else NO_SUBJECT
            then = mid_subjects.get(subject)
            asked["at_position"][name] = then
            travel[name] = (_measure(ctx, base + [option, then, "--at-position", str(mid), "--json"], runs)
                            if then else {**NO_SUBJECT, "note": f"no {subject} among the events before {mid}"})
            _progress(ctx, name + f" --at-position {mid}", travel[name])
        elif name in SHOP_VIEWS or name in ("agenda", "product"):
            live[name] = _measure(ctx, base + _shop_arguments(ctx, name) + ["--json"], runs)
        else:
            # A view added later: measured with no options, and marked so a reader knows it was not planned for.
            live[name] = _measure(ctx, base + ["--json"], runs)
            live[name]["note"] = "a view the harness does not know: run without options"
        _progress(ctx, name, live[name])
    return live, travel, asked


def _progress(ctx, name, r):
    shown = f"p50 {r['p50_ms']:.1f} ms" if r.get("p50_ms") is not None else r["status"]
    log(f"{ctx.label}: view {name}: {shown} (first run {r['catch_up_ms']:.0f} ms)"
        + (f" ({r['errors'][0]})" if r.get("errors") else ""))


def open_cost(ctx, runs):
    """What opening the store costs a CLI call. With the global `--stats` (when the CLI has it), the
    `openMicroseconds` of the `Stats: {...}` line it prints on stderr; else an estimate: the wall time of the
    smallest read of the store minus that of `pawtrail --help`, which opens nothing."""
    read = ["log", "read", "--all", "--backward", "--limit", "1"]
    probe = proc.run([ctx.pawtrail, "--stats", "--store", ctx.store, *read])
    if probe.ok:
        opens, walls = [], []
        for _ in range(runs):
            r = proc.run([ctx.pawtrail, "--stats", "--store", ctx.store, *read])
            walls.append(r.seconds * 1000)
            for line in r.stderr.decode().splitlines():
                if line.startswith("Stats: "):
                    value = json.loads(line[len("Stats: "):]).get("openMicroseconds")
                    if value is not None:
                        opens.append(value / 1000)
        if opens:
            return {"method": "--stats", "detail": "openMicroseconds of `pawtrail --stats log read --all "
                    "--backward --limit 1`", "open_ms": proc.p50(opens), "open_p99_ms": proc.p99(opens),
                    "read_ms": proc.p50(walls), "estimate": False}
        why = "--stats printed no `Stats: ` line with openMicroseconds"
    else:
        why = f"the CLI has no global --stats (it answered: {probe.error()})"
    reads = [proc.run([ctx.pawtrail, "--store", ctx.store, *read]) for _ in range(runs)]
    helps = [proc.run([ctx.pawtrail, "--help"]) for _ in range(runs)]
    read_ms = proc.p50([r.seconds * 1000 for r in reads if r.ok])
    help_ms = proc.p50([r.seconds * 1000 for r in helps])
    return {"method": "estimate", "detail": "p50 wall of `log read --all --backward --limit 1` minus p50 wall of "
            f"`pawtrail --help`; {why}", "open_ms": None if read_ms is None else read_ms - help_ms,
            "read_ms": read_ms, "help_ms": help_ms, "rss_mb": max(r.maxrss_kb for r in reads) / 1024,
            "estimate": True}
