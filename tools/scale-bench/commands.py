"""Every domain command, each run through the CLI as its own process, `runs` times on one store.

The command list is the CLI's own (`pawtrail commands list --json`), so a command added later shows up in the
report as "no spec" rather than being skipped silently. A run that fails is kept with its error: the p50 and p99
are over the runs that succeeded, and a command with any failed run misses its target.
"""

import json
import os
import shutil

import command_specs  # noqa: F401  (registers the account, pet, booking and vet specs)
import shop_specs  # noqa: F401  (registers the shop's specs)
import proc
from command_specs import ONE_SHOT, SPECS
from stores import SetupError, copy_store, log


def command_list(pawtrail):
    r = proc.run([pawtrail, "commands", "list", "--json"])
    if not r.ok:
        raise SystemExit(f"pawtrail commands list --json failed: {r.error()}")
    return [json.loads(l)["command"] for l in r.stdout.splitlines() if l.strip()]


def kebab(name):
    return "".join("-" + ch.lower() if ch.isupper() else ch for ch in name)


def cli_options(fields):
    """Fields as the verb's options: a list of strings repeats its option, a list of objects is one JSON value."""
    argv = []
    for key, value in fields.items():
        if value is None:
            continue
        option = "--" + kebab(key)
        if isinstance(value, list) and not any(isinstance(v, dict) for v in value):
            for v in value:
                argv += [option, str(v)]
        elif isinstance(value, (list, dict)):
            argv += [option, json.dumps(value)]
        else:
            argv += [option, str(value)]
    return argv


def command_argv(ctx, name, actor, fields, store=None):
    area, verb = name.split(".", 1)
    # A spec may set the command's clock (completing a booking waits for its slot to start).
    fields = dict(fields)
    now = fields.pop("now", None) or ctx.now()
    return [ctx.pawtrail, "--store", store or ctx.store, area, verb, *cli_options(fields),
            "--as", actor, "--now", now]


def measure_command(ctx, name, runs, first_time=False):
    """The runs of one command on ctx's store, with setup between them untimed. first_time: a command that
    succeeds once per store (ONE_SHOT), each run on a new copy of the template store it needs."""
    fn = SPECS.get(name)
    if fn is None:
        return {"status": "no-spec", "note": "the harness has no spec for this command (a new command?)"}
    results, setup_errors, note = [], [], None
    if name in ONE_SHOT and not first_time:
        # On a store that has it already, it is refused (admin.bootstrap) or a no-op (catalog.seed): the first run
        # tells which; a refusal is reported, a no-op is measured as what a user gets.
        actor, fields = fn(ctx, 0, 1)
        probe = proc.run(command_argv(ctx, name, actor, fields))
        if not probe.ok:
            return {"status": "refused-by-rule", "error": probe.error(), "rc": probe.rc,
                    "refusal_ms": probe.seconds * 1000,
                    "note": f"succeeds once per store; this store has it already (see '{name} (first time)')"}
        results.append(probe)
        note = "nothing to change on this store (already done): measured as that no-op"
    for i in range(len(results), runs):
        store = None
        try:
            actor, fields = fn(ctx, i, runs)
            if first_time:
                store = copy_store(ctx.templates[ONE_SHOT[name]], os.path.join(ctx.scratch, "one-shot"))
        except SetupError as e:
            setup_errors.append(str(e))
            continue
        results.append(proc.run(command_argv(ctx, name, actor, fields, store)))
        if store:
            shutil.rmtree(store)
    out = proc.summary(results)
    out["argv_example"] = " ".join(_shown(results[-1].argv)) if results else None
    out["setup_errors"] = sorted(set(setup_errors))
    out["status"] = "ok" if out["ok"] == runs else "failed"
    if note:
        out["note"] = note
    if first_time:
        out["note"] = f"each run on a new copy of a store without it ({ONE_SHOT[name]}); fresh only"
    return out


def _shown(argv):
    """argv for the report: `pawtrail` instead of the binary's path, the store as S."""
    shown = ["pawtrail"] + argv[1:]
    if len(shown) > 2 and shown[1] == "--store":
        shown[2] = "S"
    return [a if a and " " not in a and '"' not in a else "'" + a + "'" for a in shown]


def measure_all(ctx, runs, only=None):
    """Every command of the CLI's list on ctx's store; on the fresh store also the first-time rows."""
    names = [n for n in command_list(ctx.pawtrail) if not only or n in only]
    results = {}
    for name in names:
        results[name] = measure_command(ctx, name, runs)
        _progress(ctx, name, results[name])
        if name in ONE_SHOT and ctx.events == 0:
            row = f"{name} (first time)"
            results[row] = measure_command(ctx, name, runs, first_time=True)
            _progress(ctx, row, results[row])
    return results


def _progress(ctx, name, r):
    shown = f"p50 {r['p50_ms']:.1f} ms" if r.get("p50_ms") is not None else r["status"]
    errors = r.get("errors") or r.get("setup_errors") or ([r["error"]] if r.get("error") else [])
    log(f"{ctx.label}: {name}: {shown}" + (f" ({errors[0]})" if errors and r["status"] != "ok" else ""))
