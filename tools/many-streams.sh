#!/usr/bin/env bash
# What `log stats` and `log verify` hold per stream, through the CLI: appends N events (default 1,000,000) to N/2
# streams, each stream's first event in the first half of the log and its second in the second half (so every
# stream spans two segments), as 10,000-event batches, then runs both commands and prints their peak heap
# (RssAnon) and peak mapped-file memory (RssFile), sampled from /proc every 5 ms.
#   tools/many-streams.sh [EVENTS] [DIR]      (DIR default ./.scratch/many-streams; about 2 minutes on 2 cores)
# Installs nothing: run tools/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
events="${1:-1000000}"
dir="${2:-./.scratch/many-streams}"
bin="$(release_build pawtrail)"
rm -rf "$dir" && mkdir -p "$dir/parts"
streams=$(( events / 2 ))
awk -v n="$streams" 'BEGIN { for (r = 0; r < 2; r++) for (i = 1; i <= n; i++)
  printf "{\"stream\":\"pet-%d\",\"type\":\"PetNoted\",\"data\":{\"pet\":%d,\"round\":%d}}\n", i, i, r }' \
  | split -l 10000 - "$dir/parts/p."
start=$(date +%s)
for f in "$dir"/parts/p.*; do "$bin/pawtrail" --store "$dir/store" log append --batch "$f" > /dev/null; done
echo "appended $events events to $streams streams through the CLI in $(( $(date +%s) - start )) s"
rm -rf "$dir/parts"
"$bin/pawtrail" --store "$dir/store" log stats | grep -E "^(segments|events|streams)"

# Peak RssAnon and RssFile of a command, sampled from /proc while it runs.
peak() {
  "$@" > /dev/null &
  local pid=$! anon=0 file=0 a f
  while kill -0 "$pid" 2> /dev/null; do
    a=$(awk '/^RssAnon/ { print $2 }' "/proc/$pid/status" 2> /dev/null || true)
    f=$(awk '/^RssFile/ { print $2 }' "/proc/$pid/status" 2> /dev/null || true)
    if [ -n "$a" ] && [ "$a" -gt "$anon" ]; then anon=$a; fi
    if [ -n "$f" ] && [ "$f" -gt "$file" ]; then file=$f; fi
    sleep 0.005
  done
  wait "$pid"
  echo "peak heap (RssAnon) ${anon} kB, peak mapped files (RssFile) ${file} kB"
}
for verb in stats verify; do
  start=$(date +%s%N)
  result=$(peak "$bin/pawtrail" --store "$dir/store" log "$verb")
  echo "log $verb: $(( ($(date +%s%N) - start) / 1000000 )) ms, $result"
done
