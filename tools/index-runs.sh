#!/usr/bin/env bash
# What an index run costs to build on a store of real size, through the CLI as an operator would meet it:
# appends N benchmark events (default 2,150,000: 16 sealed segments at the default roll) as 10,000-event
# batches, deletes the runs the writers' upkeep built, then times `pawtrail log compact` building them again
# (wall time and peak memory, against `log stats` on the same store), and runs `log verify`.
#   tools/index-runs.sh [EVENTS] [DIR]      (DIR default ./.scratch/index-runs; about 2 minutes on 2 cores)
# Installs nothing: run tools/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
events="${1:-2150000}"
dir="${2:-./.scratch/index-runs}"
bin="$(release_build pawtrail pawtrail-bench)"
rm -rf "$dir" && mkdir -p "$dir/parts"
"$bin/pawtrail-bench" generate --events "$events" --seed 7 --per-commit 10000 --expected-versions | split -l 10000 - "$dir/parts/p."
start=$(date +%s)
for f in "$dir"/parts/p.*; do "$bin/pawtrail" --store "$dir/store" log append --batch "$f" > /dev/null; done
echo "appended $events events as $(ls "$dir/parts" | wc -l) batches through the CLI in $(( $(date +%s) - start )) s"
rm -rf "$dir/parts" "$dir/store/runs"
/usr/bin/time -f "log compact (building the runs): %e s wall, %M kB peak resident" "$bin/pawtrail" --store "$dir/store" log compact
/usr/bin/time -f "log stats (for comparison): %e s wall, %M kB peak resident" "$bin/pawtrail" --store "$dir/store" log stats | grep -E "^(events|segments|index)"
/usr/bin/time -f "log verify: %e s wall, %M kB peak resident" "$bin/pawtrail" --store "$dir/store" log verify
