#!/usr/bin/env bash
# The README's first command: set up, build in release mode, and run the demo on the embedded store
# (./pawtrail-data unless PAWTRAIL_STORE or --store says otherwise). Extra arguments go to `pawtrail demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
. tools/env.sh
swift build "${release[@]}" --product pawtrail 2>&1 | tail -n 1
exec .build/release/pawtrail demo "$@"
