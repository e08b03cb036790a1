#!/usr/bin/env bash
# The README's second command, and what CI runs: set up, then build and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server
. tools/env.sh
swift build --build-tests
swift test
# Failover needs two servers: a script, run on the binary the tests built.
tools/failover.sh --bin .build/debug/pawtrail
