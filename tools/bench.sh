#!/usr/bin/env bash
# Builds the benchmark in release mode and runs it; arguments go to pawtrail-bench.
#   tools/bench.sh                 full run (a few minutes on 2 cores)
#   tools/bench.sh --scale 0.1     quick smoke run
#   tools/bench.sh --json > r.json machine-readable results (the table goes to stderr)
# Installs nothing: run tools/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
swift build "${release[@]}" --product pawtrail-bench >&2
bin="$(swift build "${release[@]}" --show-bin-path)/pawtrail-bench"
# The report quotes the command as typed, not the binary path.
PAWTRAIL_BENCH_COMMAND="tools/bench.sh${*:+ $*}" exec "$bin" "$@"
