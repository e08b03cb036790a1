#!/usr/bin/env bash
# What `pawtrail account delete` costs as a whole process on a store with a year of history, with every read model
# built (as a shop's store in use has them): copies the store, rebuilds every read model (untimed), then deletes N
# customers one after another, each its own process, and prints each one's wall seconds and peak RSS, then the
# median. The time beyond an ordinary command is the erasure: ending the account's obligations, removing its
# snapshots (by their tag) and erasing its entries from the personal index, which the directory view below builds
# first, as a store in use has it (docs/design.md, "Personal data").
#   tools/erasure-cost.sh [N] [STORE]
# STORE defaults to the 2M-event year `tools/scale-bench.sh` prepares (./.scratch/scale-bench/workloads/2M-warm/store;
# run `tools/scale-bench.sh --sizes 2m --sections open` once to make it). N defaults to 3.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
n="${1:-3}"
source="${2:-./.scratch/scale-bench/workloads/2M-warm/store}"
[ -d "$source" ] || { echo "Error: no store at $source (see the usage above)" >&2; exit 64; }
bin="$(release_build pawtrail)"
store=./.scratch/erasure-cost/store
rm -rf "$store" && mkdir -p "$(dirname "$store")" && cp -r "$source" "$store" && sync
"$bin/pawtrail" --store "$store" projections rebuild --all > /dev/null
# The first N customers of the directory (staff and admins left out: the last admin may not delete their account).
users=$("$bin/pawtrail" --store "$store" view customers --page-size 100 --json \
  | grep -o '"userId":"[^"]*","name":"[^"]*","email":"[^"]*","phone":"[^"]*","address":"[^"]*","language":"[^"]*","role":"customer"' \
  | cut -d'"' -f4 | head -n "$n")
times=()
for user in $users; do
  now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  out=$( { /usr/bin/time -f "%e %M" "$bin/pawtrail" --store "$store" account delete --as "$user" --reauthenticated-at "$now" > /dev/null; } 2>&1 )
  read -r seconds kb <<< "$(tail -1 <<< "$out")"
  echo "account delete --as $user: ${seconds} s, $((kb / 1024)) MB"
  times+=("$seconds")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
echo "median of ${#times[@]}: ${median} s"
