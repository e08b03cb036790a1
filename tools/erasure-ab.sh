#!/usr/bin/env bash
# What `pawtrail account delete` costs for two builds, on the same customers: each build gets its own copy of a store
# with a year of history, rebuilds every read model and views the directory once (untimed, as a store in use has
# them), then deletes the same N customers one after another, each its own process, the two builds alternated.
# Prints each deletion's wall seconds, peak RSS and what the erasure reported.
#   tools/erasure-ab.sh OLD_BIN NEW_BIN [N] [STORE]
# STORE defaults to the 2M-event year of `tools/scale-bench.sh --sizes 2m --sections open`. Build the old side from an
# earlier commit in a worktree (git worktree add /tmp/old REV; swift build -c release --static-swift-stdlib --product
# pawtrail there).
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,9p "$0" >&2; exit 64; }
old="$(realpath "$1")" new="$(realpath "$2")" n="${3:-5}"
cd "$(dirname "$0")/.."
source="${4:-./.scratch/scale-bench/workloads/2M-warm/store}"
[ -d "$source" ] || { echo "Error: no store at $source (see the usage above)" >&2; exit 64; }
dir=$(mktemp -d /tmp/pawtrail-erasure-ab.XXXXXX); trap 'rm -rf "$dir"' EXIT
for side in old new; do
  bin=$old; [ $side = new ] && bin=$new
  cp -r "$source" "$dir/$side" && sync
  "$bin" --store "$dir/$side" projections rebuild --all > /dev/null
  "$bin" --store "$dir/$side" view customers --page-size 1 > /dev/null
done
# The first N customers of the directory (staff and admins left out: the last admin may not delete their account).
users=$("$old" --store "$dir/old" view customers --page-size 100 --json \
  | grep -o '"userId":"[^"]*","name":"[^"]*","email":"[^"]*","phone":"[^"]*","address":"[^"]*","language":"[^"]*","role":"customer"' \
  | cut -d'"' -f4 | head -n "$n")
for user in $users; do
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    out=$( { /usr/bin/time -f "%e %M" "$bin" --store "$dir/$side" account delete --as "$user" --reauthenticated-at "$now" > "$dir/out"; } 2>&1 )
    read -r seconds kb <<< "$(tail -1 <<< "$out")"
    echo "$side $user: ${seconds} s, $((kb / 1024)) MB; $(grep -o 'Erased: .*' "$dir/out")"
  done
done
