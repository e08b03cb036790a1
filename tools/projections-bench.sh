#!/usr/bin/env bash
# Builds the projections benchmark in release mode and runs it; arguments go to pawtrail-projections-bench.
#   tools/projections-bench.sh                  full run: 2,000,000 events (the workload is generated once, then reused)
#   tools/projections-bench.sh --scale 0.1      quick run: 200,000 events
#   tools/projections-bench.sh --json > r.json  machine-readable results (the table goes to stderr)
# Installs nothing: run tools/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
swift build "${release[@]}" --product pawtrail-projections-bench >&2
bin="$(swift build "${release[@]}" --show-bin-path)/pawtrail-projections-bench"
# The report quotes the command as typed, not the binary path.
PAWTRAIL_BENCH_COMMAND="tools/projections-bench.sh${*:+ $*}" exec "$bin" "$@"
