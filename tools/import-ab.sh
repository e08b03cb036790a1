#!/usr/bin/env bash
# The bulk import of `tools/scale-bench.sh --sections import` (500,000 events in 10,000-line files, a `pawtrail log
# append --batch` process per file, beside Python's sqlite3 in the same run) for two builds, alternated, ROUNDS times
# each: for a change whose effect is smaller than this machine's swings between runs. Prints each run's rates and ratio.
#   tools/import-ab.sh OLD_BIN NEW_BIN [ROUNDS]
# Build the old side from an earlier commit in a worktree (git worktree add /tmp/old REV; swift build -c release
# --static-swift-stdlib --product pawtrail there). The workload comes from this checkout's pawtrail-bench.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,6p "$0" >&2; exit 64; }
old="$(realpath "$1")" new="$(realpath "$2")" rounds="${3:-2}"
cd "$(dirname "$0")/.."
. tools/env.sh
bin="$(release_build pawtrail-bench pawtrail-projections-bench)"
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
for side in old new; do
  mkdir -p "$dir/$side"
  ln -s "$(realpath "$bin/pawtrail-bench")" "$(realpath "$bin/pawtrail-projections-bench")" "$dir/$side/"
done
ln -s "$old" "$dir/old/pawtrail"
ln -s "$new" "$dir/new/pawtrail"
for round in $(seq 1 "$rounds"); do
  for side in old new; do
    echo "== $side, round $round"
    python3 -B tools/scale-bench/main.py --bin "$dir/$side" --sizes fresh --sections import 2>&1 \
      | grep -E '^\| `pawtrail log append|^\| Python sqlite3|^ours ÷ sqlite3' || { echo "the run failed" >&2; exit 1; }
  done
done
