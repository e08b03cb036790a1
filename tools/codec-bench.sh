#!/usr/bin/env bash
# Builds and runs the codec benchmark in release mode: the log's binary encoding of a domain event next to
# Foundation's JSONEncoder/JSONDecoder on the same event. An argument sets the events per run (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/env.sh
swift build "${release[@]}" --product pawtrail-codec-bench >&2
exec "$(swift build "${release[@]}" --show-bin-path)/pawtrail-codec-bench" "$@"
