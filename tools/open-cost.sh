#!/usr/bin/env bash
# What opening a store costs every CLI call, with the active segment's checkpoint and without it: appends N
# benchmark events (default 130,000: one active segment, nearly full) as 1,000-event batches through the CLI, then
# times `log stats` and `log read --stream order-5 --limit 1` (mean of 20 runs each, wall time; peak resident memory
# of one `log stats`) as the store is, and again with the checkpoint moved aside, and on an empty store.
#   tools/open-cost.sh [EVENTS] [DIR]       (DIR default ./.scratch/open-cost; about a minute on 2 cores)
# Installs nothing: run tools/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
events="${1:-130000}"
dir="${2:-./.scratch/open-cost}"
bin="$(release_build pawtrail pawtrail-bench)"
rm -rf "$dir" && mkdir -p "$dir/parts"
"$bin/pawtrail-bench" generate --events "$events" --seed 7 --per-commit 1000 --expected-versions | split -l 1000 - "$dir/parts/p."
for f in "$dir"/parts/p.*; do "$bin/pawtrail" --store "$dir/store" log append --batch "$f" > /dev/null; done
rm -rf "$dir/parts"
"$bin/pawtrail" --store "$dir/empty" log append --stream pet-1 --type PetFed --data '{}' > /dev/null

# Mean wall time of 20 runs of a command, in milliseconds.
mean_ms() {
  local start end
  start=$(date +%s%N)
  for _ in $(seq 20); do "$@" > /dev/null; done
  end=$(date +%s%N)
  echo $(( (end - start) / 20000000 ))
}
peak_kb() { /usr/bin/time -f "%M" "$@" 2>&1 > /dev/null | tail -1; }

report() {
  local label="$1" store="$2"
  echo "$label: log stats $(mean_ms "$bin/pawtrail" --store "$store" log stats) ms," \
    "log read $(mean_ms "$bin/pawtrail" --store "$store" log read --stream order-5 --limit 1) ms," \
    "peak resident $(peak_kb "$bin/pawtrail" --store "$store" log stats) kB"
}

checkpoint=$(ls "$dir"/store/segments/*.ckpt)
"$bin/pawtrail" --store "$dir/store" log inspect 0 | grep -E "^Checkpoint"
report "$events events, with the checkpoint" "$dir/store"
mv "$checkpoint" "$dir/aside.ckpt"
report "$events events, without it" "$dir/store"
mv "$dir/aside.ckpt" "$checkpoint"
report "an empty store" "$dir/empty"
echo "checkpoint: $(stat -c %s "$checkpoint") bytes"
