#!/usr/bin/env bash
# CPU and wall time of one CLI call as a whole process, two builds alternated on the same store: for a change whose
# effect is smaller than this machine's swings between runs, which a side-by-side alternation cancels out.
#   tools/view-cpu.sh OLD_BIN NEW_BIN STORE RUNS -- ARGS...
#   tools/view-cpu.sh /tmp/old/pawtrail .build/release/pawtrail .scratch/scale-bench/workloads/10M-warm/store 12 -- view pets --owner u-DGfNKUNJzlY --json
# Build the old side from an earlier commit in a worktree (git worktree add /tmp/old REV; swift build -c release
# --static-swift-stdlib --product pawtrail there). Each build answers once untimed (its catch-up), and the two answers
# must be byte-equal; then RUNS calls of each, alternated. Prints the median and the range of CPU (perf stat's
# task-clock; /usr/bin/time's user + system, in 10 ms steps, where perf cannot count) and of wall time, in ms.
set -euo pipefail
[ $# -ge 6 ] && [ "$5" = "--" ] || { sed -n 2,9p "$0" >&2; exit 64; }
old="$1" new="$2" store="$3" runs="$4"; shift 5
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$old" "$@" --store "$store" > "$dir/old.out"; "$new" "$@" --store "$store" > "$dir/new.out"
cmp -s "$dir/old.out" "$dir/new.out" && echo "the same answer" || echo "the answers differ (see: $old $* --store $store)"
measure() {
  local s e
  if perf stat -x, -e task-clock,duration_time -o "$dir/perf" "$1" "${@:2}" --store "$store" > /dev/null 2>&1; then
    # task-clock in ms, duration_time in ns: the process's own wall time, without perf's start.
    awk -F, '/task-clock/ { c = $1 } /duration_time/ { w = $1 / 1e6 } END { printf "%.2f %.2f\n", c, w }' "$dir/perf"
  else
    s=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$dir/time" "$1" "${@:2}" --store "$store" > /dev/null
    e=$(date +%s%N)
    awk -v w="$(( (e - s) / 1000 ))" '{ printf "%.2f %.2f\n", ($1 + $2) * 1000, w / 1000 }' "$dir/time"
  fi
}
for _ in $(seq 1 "$runs"); do
  measure "$old" "$@" >> "$dir/old"; measure "$new" "$@" >> "$dir/new"
done
for side in old new; do
  sort -n -k1 "$dir/$side" | awk -v s="$side" '{ c[NR] = $1 } END { printf "%s: CPU median %.1f ms (%.1f to %.1f)", s, c[int((NR + 1) / 2)], c[1], c[NR] }'
  sort -n -k2 "$dir/$side" | awk '{ w[NR] = $2 } END { printf ", wall median %.1f ms (%.1f to %.1f)\n", w[int((NR + 1) / 2)], w[1], w[NR] }'
done
