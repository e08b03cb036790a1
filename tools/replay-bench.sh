#!/usr/bin/env bash
# What an idempotent re-send costs through the CLI (issue 20): `cart add` as its own process, without a command id,
# with a new --command-id (one id lookup before deciding), and re-sent with the id of one already applied (the lookup
# and a read of its events, nothing decided or appended), on a fresh store and on a working copy of the seeded
# 2M-event year (with its snapshots built, as a store in use has them). p50 / p99 and peak RSS of each; the variants
# alternate run by run.
#   tools/replay-bench.sh [--runs N] [--store-2m DIR]   (default: tools/projections-bench.sh's 2M store, generated if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
runs=15
seeded=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --store-2m) seeded="$2"; shift 2 ;;
    *) echo "usage: tools/replay-bench.sh [--runs N] [--store-2m DIR]" >&2; exit 64 ;;
  esac
done
for product in pawtrail pawtrail-projections-bench; do swift build "${release[@]}" --product "$product" >&2; done
bin="$(swift build "${release[@]}" --show-bin-path)"
if [ -z "$seeded" ]; then
  mkdir -p .scratch/projections-bench
  "$bin/pawtrail-projections-bench" generate --events 2000000 --dir .scratch/projections-bench >&2
  seeded=.scratch/projections-bench/workload-2000000-seed42-days365/store
fi
python3 -B - "$bin/pawtrail" "$seeded" "$runs" <<'PY'
import os, shutil, subprocess, sys, tempfile, uuid
sys.path.insert(0, "tools/scale-bench")
import proc

pawtrail, seeded, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
scratch = tempfile.mkdtemp(prefix="pawtrail-replay-bench.")

def ok(store, *args):
    r = proc.run([pawtrail, "--store", store, *args])
    if not r.ok:
        sys.exit(f"setup failed: pawtrail {' '.join(args)}: {r.error()}")

def prepare(label):
    store = os.path.join(scratch, label)
    if label == "fresh":
        ok(store, "account", "signup", "--as", "u-ada", "--name", "Ada", "--email", "ada@example.com")
        ok(store, "admin", "bootstrap", "--as", "u-ada")
        ok(store, "catalog", "seed", "--as", "u-ada")
    else:
        subprocess.run(["cp", "-r", seeded, store], check=True)
        ok(store, "snapshots", "build")
    ok(store, "account", "signup", "--as", "u-replay", "--name", "Rae", "--email", "rae.replay@example.com")
    os.sync()
    return store

table = {}
for label in ("fresh", "2m"):
    store = prepare(label)
    add = [pawtrail, "--store", store, "cart", "add", "--as", "u-replay", "--product-id", "product_cat_001"]
    applied = str(uuid.uuid4())
    ok(store, *add[3:], "--command-id", applied)
    samples = {"no id": [], "new id": [], "re-sent id": []}
    for i in range(runs + 1):
        # Each add leaves a line in the cart; the cart's limit is 99 units, so it is emptied now and then (untimed).
        if i % 40 == 39:
            ok(store, "cart", "clear", "--as", "u-replay")
        samples["no id"].append(proc.run(add))
        samples["new id"].append(proc.run(add + ["--command-id", str(uuid.uuid4())]))
        samples["re-sent id"].append(proc.run(add + ["--command-id", applied]))
    for name, rs in samples.items():
        table[(label, name)] = proc.summary(rs[1:])
    shutil.rmtree(store)

print(f"`cart add` through the CLI, each its own process, {runs} runs a variant (the first apart), alternating:")
print()
print("| variant | fresh p50 / p99 ms | fresh MB | 2M p50 / p99 ms | 2M MB | 2M ÷ fresh | ÷ no id, 2M |")
print("|---|---|---|---|---|---|---|")
for name in ("no id", "new id", "re-sent id"):
    f, m, base = table[("fresh", name)], table[("2m", name)], table[("2m", "no id")]
    bad = [e for s in (f, m) for e in s["errors"]]
    if bad:
        print(f"| {name} | failed: {bad[0]} |")
        continue
    print(f"| {name} | {f['p50_ms']:.1f} / {f['p99_ms']:.1f} | {f['rss_mb']:.0f} | {m['p50_ms']:.1f} / {m['p99_ms']:.1f} | "
          f"{m['rss_mb']:.0f} | {m['p50_ms'] / f['p50_ms']:.2f}x | {m['p50_ms'] / base['p50_ms']:.2f}x |")
shutil.rmtree(scratch)
PY
