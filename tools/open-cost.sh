#!/usr/bin/env bash
# What opening a store costs every CLI call, with the active segment's checkpoint and without it: appends N
# benchmark events (default 130,000: one active segment, nearly full) as batches of PER_COMMIT events (default
# 1,000) through the CLI, each batch a `log append --batch` process fed from the generator (no files in between),
# then prints `--stats`' openMicroseconds of 9 runs of the smallest read, and times `log stats` and `log read
# --stream order-5 --limit 1` (mean of 20 runs each, wall time; peak resident memory of one `log stats`) as the
# store is, and again with the checkpoint moved aside, and on an empty store.
#   tools/open-cost.sh [EVENTS] [DIR] [PER_COMMIT]   (DIR default ./.scratch/open-cost; about a minute on 2 cores;
#   10,000,000 events in batches of 10,000: about 12 minutes)
# Installs nothing: run tools/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
events="${1:-130000}"
dir="${2:-./.scratch/open-cost}"
per_commit="${3:-1000}"
bin="$(release_build pawtrail pawtrail-bench)"
rm -rf "$dir" && mkdir -p "$dir"
"$bin/pawtrail-bench" generate --events "$events" --seed 7 --per-commit "$per_commit" --expected-versions \
  | split -l "$per_commit" --filter="'$bin/pawtrail' --store '$dir/store' log append --batch - > /dev/null"
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

echo "open, $events events: openMicroseconds of 9 runs of 'log read --all --backward --limit 1':" $(
  for _ in $(seq 9); do
    "$bin/pawtrail" --store "$dir/store" --stats log read --all --backward --limit 1 2>&1 > /dev/null \
      | grep -o '"openMicroseconds":[0-9]*' | grep -o '[0-9]*$'
  done | sort -n | tr '\n' ' ')
checkpoint=$(ls "$dir"/store/segments/*.ckpt 2> /dev/null || true)
if [[ -z "$checkpoint" ]]; then
  echo "no active-segment checkpoint (the last segment was sealed)"
  report "$events events" "$dir/store"
  report "an empty store" "$dir/empty"
  exit 0
fi
"$bin/pawtrail" --store "$dir/store" log inspect 0 | grep -E "^Checkpoint"
report "$events events, with the checkpoint" "$dir/store"
mv "$checkpoint" "$dir/aside.ckpt"
report "$events events, without it" "$dir/store"
mv "$dir/aside.ckpt" "$checkpoint"
report "an empty store" "$dir/empty"
echo "checkpoint: $(stat -c %s "$checkpoint") bytes"
