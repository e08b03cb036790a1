#!/usr/bin/env bash
# The README's second command, and what CI runs: set up, then build and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server
. tools/env.sh
swift build --build-tests
# A run takes about 6 minutes on 2 cores; one that hangs fails after 30, naming the tests in flight and their stacks.
tools/bounded.sh 1800 swift test
# Failover needs two servers: a script, run on the binary the tests built.
tools/bounded.sh 900 tools/failover.sh --bin .build/debug/pawtrail
