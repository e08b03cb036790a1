#!/usr/bin/env bash
# CPU and wall time of one domain command as a whole process, on a copy of a store with a year of history: runs N
# `pawtrail pet set-vet` processes (each appends one event: the vet's name changes every time) after one untimed
# run, and prints the mean milliseconds of CPU (perf stat's task-clock, or /usr/bin/time's user + system) and of
# wall time per command. What the open, the catch-up past the active segment's checkpoint and the append cost.
#   tools/command-cpu.sh [N] [STORE] [PET] [OWNER]
# STORE defaults to the 2M-event year `tools/scale-bench.sh` prepares (./.scratch/scale-bench/workloads/2M-warm/store;
# run `tools/scale-bench.sh --sizes 2m --sections open` once to make it), copied to ./.scratch/command-cpu first;
# PET and OWNER default to a pet of that seeded year and its owner. N defaults to 300 (about 5 s).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
n="${1:-300}"
source="${2:-./.scratch/scale-bench/workloads/2M-warm/store}"
pet="${3:-p-OScOsbh9a-I}"
owner="${4:-u-DNyQHZoK_Wb}"
[ -d "$source" ] || { echo "Error: no store at $source (see the usage above)" >&2; exit 64; }
bin="$(release_build pawtrail)"
store=./.scratch/command-cpu/store
rm -rf "$store" && mkdir -p "$(dirname "$store")" && cp -r "$source" "$store"
run() {
  for i in $(seq 1 "$1"); do
    "$bin/pawtrail" --store "$store" pet set-vet --pet-id "$pet" --vet-name "Dr. V$i" --clinic 'Uttara Pet Point' \
      --phone '+880 2 8578814' --as "$owner" --now 2026-12-31T09:00:00Z > /dev/null
  done
}
export -f run; export bin store pet owner
run 1  # a copy's checkpoint names another file: the first command scans the active segment and writes a new one
start=$(date +%s%N)
if perf stat -e task-clock -x, -o ./.scratch/command-cpu/perf.txt -- bash -c "run $n" 2>/dev/null; then
  cpu_ms=$(awk -F, '/task-clock/ {print $1}' ./.scratch/command-cpu/perf.txt)
else
  cpu_ms=$( { /usr/bin/time -f "%U %S" bash -c "run $n" ; } 2>&1 | awk '{print ($1 + $2) * 1000}')
fi
end=$(date +%s%N)
awk -v c="$cpu_ms" -v w="$(( (end - start) / 1000000 ))" -v n="$n" \
  'BEGIN { printf "%d commands: %.2f ms of CPU and %.2f ms of wall time a command (bash loop included)\n", n, c / n, w / n }'
