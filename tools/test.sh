#!/usr/bin/env bash
# The README's second command, and what CI runs: set up, then build and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server
. tools/env.sh
swift build --build-tests
# At most 8 tests at once: with every test in flight (Swift Testing's default), each step of a task waits behind
# hundreds of others on the two threads of the pool, and on a busy machine cases whose work takes milliseconds ran
# into their 120 s watchdogs. A run takes about 7 minutes on 2 cores; one that hangs fails after 30, naming the tests
# in flight and their stacks.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-8}"
tools/bounded.sh 1800 swift test
# Failover needs two servers: a script, run on the binary the tests built.
tools/bounded.sh 900 tools/failover.sh --bin .build/debug/pawtrail
