#!/usr/bin/env bash
# Fault injection: writers append through the CLI, racing on shared streams with exact expected versions, and
# every round all of them are killed (SIGKILL) at a random moment. After each round the store must open (recovering
# a torn tail if there is one), pass `log verify`, hold every append a writer saw acknowledged at the version it
# was told, and have gapless positions and versions. Exits 1 at the first problem, with what was wrong.
#   tools/crash-loop.sh [--rounds N] [--writers K] [--streams S] [--segment-events E] [--dir DIR]
# --segment-events E rolls a segment every E events, builds an index run every 2 sealed segments and checkpoints the
# active segment every E/3 events (PAWTRAIL_SEGMENT_EVENTS, PAWTRAIL_INDEX_RUN_SEGMENTS, PAWTRAIL_CHECKPOINT_EVENTS),
# so kills also land in rolls, compaction, run building and checkpoints.
# A process killed mid-append is a crash, not a power loss: what reached the page cache survives it. A long run is
# this script's job, not the test suite's (the suite cuts files at every byte instead).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh

rounds=20
writers=4
streams=6
dir=./.scratch/crash-loop
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --writers) writers="$2"; shift 2 ;;
    --streams) streams="$2"; shift 2 ;;
    --segment-events)
      export PAWTRAIL_SEGMENT_EVENTS="$2" PAWTRAIL_INDEX_RUN_SEGMENTS=2 PAWTRAIL_CHECKPOINT_EVENTS=$(( $2 > 5 ? $2 / 3 : 1 ))
      shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "Error: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done

swift build "${release[@]}" --product pawtrail >&2
bin="$(swift build "${release[@]}" --show-bin-path)/pawtrail"
rm -rf "$dir"
mkdir -p "$dir"
# An absolute path, so that killing by command line only ever reaches this run's processes.
dir="$(cd "$dir" && pwd)"
store="$dir/store"
acks="$dir/acks"
: > "$acks"

# One writer: read a shared stream's version, append one event at exactly that version, and record the
# acknowledgement ("stream version event-id") only once the CLI has printed it. Conflicts are expected.
writer() {
  local w=$1 n=0
  while :; do
    local stream="crash-$((RANDOM % streams))"
    local v expected id out version
    v=$("$bin" --store "$store" log read --stream "$stream" --backward --limit 1 --json 2>/dev/null \
      | sed -n 's/.*"version":\([0-9]*\).*/\1/p') || true
    expected=${v:-no-stream}
    id=$(cat /proc/sys/kernel/random/uuid)
    if out=$("$bin" --store "$store" log append --stream "$stream" --type Crashed \
      --data "{\"writer\":$w,\"n\":$n}" --event-id "$id" --expected-version "$expected" --json 2>/dev/null); then
      version=$(printf '%s' "$out" | sed -n 's/.*"version":\([0-9]*\).*/\1/p')
      echo "$stream $version $id" >> "$acks.$w"
    fi
    n=$((n + 1))
  done
}

fail() {
  echo "Error: round $round: $*" >&2
  echo "The store and the acknowledgements are kept in $dir." >&2
  exit 1
}

total_killed=0
recoveries=0
for round in $(seq 1 "$rounds"); do
  pids=()
  for w in $(seq 1 "$writers"); do
    writer "$w" &
    pids+=($!)
    disown
  done
  # Somewhere between 0.3 and 1.5 seconds in: mid-open, mid-append, mid-flush or mid-close. The writers' loops
  # are frozen first, so that no new process starts while the running ones are killed.
  sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", 0.3 + (r % 1200) / 1000 }')"
  kill -STOP "${pids[@]}" 2>/dev/null || true
  killed=$(pkill -9 -c -f -- "--store $store" || true)
  total_killed=$((total_killed + ${killed:-0}))
  kill -9 "${pids[@]}" 2>/dev/null || true
  for p in "${pids[@]}"; do
    while kill -0 "$p" 2>/dev/null; do sleep 0.01; done
  done
  while pgrep -f -- "--store $store" > /dev/null; do sleep 0.01; done
  cat "$acks".* >> "$acks" 2>/dev/null || true
  rm -f "$acks".*

  # Opening recovers a torn tail (reported on stderr); then everything must check out.
  "$bin" --store "$store" log stats --json > "$dir/stats.json" 2> "$dir/open.err" || fail "the store does not open: $(cat "$dir/open.err")"
  recovered=$(grep -c '^Warning: recovered' "$dir/open.err" || true)
  recoveries=$((recoveries + recovered))
  "$bin" --store "$store" log verify > "$dir/verify.txt" 2>&1 || fail "log verify: $(cat "$dir/verify.txt")"

  "$bin" --store "$store" log read --all --json --limit 1000000 > "$dir/all.jsonl"
  events=$(wc -l < "$dir/all.jsonl")
  awk -F'"position":' '{ split($2, a, ","); if (a[1] != NR - 1) { print "position " a[1] " at line " NR; exit 1 } }' "$dir/all.jsonl" \
    > "$dir/gaps.txt" || fail "positions are not gapless: $(cat "$dir/gaps.txt")"
  for s in $(seq 0 $((streams - 1))); do
    grep "\"stream\":\"crash-$s\"" "$dir/all.jsonl" | sed -n 's/.*"version":\([0-9]*\).*/\1/p' > "$dir/versions.txt" || true
    awk '{ if ($1 != NR - 1) { print "version " $1 " at place " NR - 1; exit 1 } }' "$dir/versions.txt" > "$dir/gaps.txt" \
      || fail "stream crash-$s has a gap: $(cat "$dir/gaps.txt")"
  done
  while read -r stream version id; do
    grep -q "\"stream\":\"$stream\",\"version\":$version,\"type\":\"Crashed\",\"eventId\":\"$id\"" "$dir/all.jsonl" \
      || fail "acknowledged $id at $stream version $version is not in the log"
  done < "$acks"
  echo "round $round: ok ($events events, $(wc -l < "$acks") acknowledged appends all present; killed $killed, torn tails recovered $recovered)" >&2
done
[ -s "$acks" ] || { echo "Error: no append was ever acknowledged: nothing was checked" >&2; exit 1; }
echo "ok: $rounds rounds, $events events, $(wc -l < "$acks") acknowledged appends all present; killed $total_killed pawtrail processes (reads and appends), $recoveries torn tails recovered" >&2
