#!/usr/bin/env bash
# Runs a command with a time limit, for the test suite: a run that hangs fails within the limit, and tells where.
#
#   tools/bounded.sh SECONDS COMMAND [ARGUMENTS...]
#
# On time-out it prints, on stderr, the tests that started and never ended (from Swift Testing's "started" lines
# in the command's output) and every thread's stack of each test process still running (gdb, when installed),
# then kills the command and exits 124. Otherwise it exits with the command's status. The command's output passes
# through unchanged.
set -uo pipefail
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: tools/bounded.sh SECONDS COMMAND [ARGUMENTS...]" >&2
    exit 64
fi
limit=$1
shift
log=$(mktemp /tmp/pawtrail-bounded.XXXXXX)
trap 'rm -f "$log"' EXIT

# The command runs in a process group of its own, so that a time-out ends it and every child it started. Its output
# goes to the log, which tail passes on as it grows, and whole once the command has ended.
set -m
( exec "$@" ) > "$log" 2>&1 &
pid=$!
set +m
tail -n +1 -s 0.2 -f --pid="$pid" "$log" &
tailer=$!

waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$limit" ]; do
    sleep 1
    waited=$((waited + 1))
done
if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    status=$?
    wait "$tailer"
    exit $status
fi

tests=$(pgrep -g "$pid" -f '\.xctest' || true)
{
    sleep 1
    echo
    echo "Error: '$*' did not finish within $limit s."
    echo "Tests that started and never ended:"
    # A test's "started" line names it as its end line does; what is left after removing the ended ones hangs. Test
    # cases have no end lines of their own (their test's tells), and the run's lines are not a test's.
    grep -E '^◇ Test .* started\.$' "$log" | grep -vE '^◇ Test (case .*|run) started\.$' \
        | sed -e 's/^◇ Test //' -e 's/ started\.$//' | sort -u > "$log.started"
    grep -E '^[✔✘━] Test .* (passed|failed) after [0-9.]+ seconds' "$log" | sed -E -e 's/^[✔✘━] Test //' \
        -e 's/ (with [0-9]+ test cases? )?(passed|failed) after [0-9.]+ seconds.*$//' | sort -u > "$log.ended"
    comm -23 "$log.started" "$log.ended" | sed 's/^/  /'
    rm -f "$log.started" "$log.ended"
    for test in $tests; do
        echo "Threads of test process $test ($(tr '\0' ' ' < /proc/"$test"/cmdline 2>/dev/null | cut -c1-200)):"
        if command -v gdb > /dev/null; then
            timeout 120 gdb -p "$test" -batch -nx -ex 'set pagination off' -ex 'thread apply all bt 40' 2>/dev/null \
                | grep -E '^(Thread|#)' | cut -c1-240
        else
            echo "  (gdb is not installed: no stacks)"
        fi
    done
} >&2
kill -TERM -- -"$pid" 2>/dev/null
sleep 5
kill -KILL -- -"$pid" 2>/dev/null
# The PostgreSQL servers a test process started (tools/test.sh's) left its process group as daemons; killed, the
# process never ran the exit handler that stops them.
for test in $tests; do
    pkill -f "pawtrail-pg-test-[0-9]*-$test/" 2>/dev/null || true
done
wait "$pid" 2>/dev/null
wait "$tailer"
exit 124
