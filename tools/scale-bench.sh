#!/usr/bin/env bash
# The benchmark users would run (issue 18): every domain command and every view through the CLI, each its own
# process, on a fresh store and on the seeded year at 200k and 2M events (optionally 10M), with time travel, the
# open cost, `projections rebuild --all` of each seeded store, `exec` of 100,000 commands and the bulk import against
# Python's sqlite3, in one run; prints markdown tables with the targets marked met or missed.
#   tools/scale-bench.sh                                   full run: fresh, 200k, 2M (generated once, then reused)
#   tools/scale-bench.sh --sizes fresh,200k,2m,10m         also the 10M-event business (or: --events 10000000)
#   tools/scale-bench.sh --sizes fresh,200k --runs 3 --exec-commands 2000 --import-events 50000   a quick run
#   tools/scale-bench.sh --sizes 2m --sections rebuild --rebuild-runs 5   the rebuild of the 2M store alone
#   tools/scale-bench.sh --sizes fresh,10m --sections commands --commands pet.add,role.grant   some commands only
#   tools/scale-bench.sh --json > r.json                   one JSON object on stdout, the tables on stderr
#   tools/scale-bench.sh --sizes 2m --sections commands,views --postgres   the same on PostgreSQL beside the file
#                                                          store (a throw-away server; or --postgres URL for yours)
# Options: [--events N] [--sizes LIST] [--runs N] [--rebuild-runs N] [--exec-commands N] [--import-events N]
#          [--dir DIR] [--json] [--commands LIST] [--sections commands,views,open,rebuild,exec,import] [--keep] [--skip-build]
#          [--postgres [URL]]
# The harness is tools/scale-bench/ (Python 3.11, standard library only). Installs nothing: run tools/setup.sh first
# on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./.build/release
if [[ " $* " != *" --skip-build "* ]]; then
  . tools/env.sh
  for product in pawtrail pawtrail-projections-bench pawtrail-bench; do
    swift build "${release[@]}" --product "$product" >&2
  done
  bin="$(swift build "${release[@]}" --show-bin-path)"
fi
# --postgres without a URL: a throw-away server for this run (tools/pg-server.sh).
args=("$@")
for i in "${!args[@]}"; do
  if [ "${args[$i]}" = "--postgres" ] && { [ $((i + 1)) -ge ${#args[@]} ] || [[ "${args[$((i + 1))]}" == --* ]]; }; then
    . tools/pg-server.sh
    pg_server_start 55481
    args=("${args[@]:0:$((i + 1))}" "$pg_url" "${args[@]:$((i + 1))}")
    break
  fi
done
# The report quotes the command as typed.
SCALE_BENCH_COMMAND="tools/scale-bench.sh${*:+ $*}" python3 -B tools/scale-bench/main.py --bin "$bin" "${args[@]}"
