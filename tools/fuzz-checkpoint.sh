#!/bin/sh
# A longer seeded fuzz campaign against the active segment's checkpoint (ActiveCheckpointFuzzTests).
# Usage: tools/fuzz-checkpoint.sh [mutants per seed] [seed...]   (after `swift build --build-tests`)
# Each mutant is described on standard error before it runs: after a trap, the last "fuzz seed" line names it.
set -e
mutants=${1:-3000}
shift 2>/dev/null || true
seeds=${*:-"1 2 3"}
for seed in $seeds; do
    log=$(mktemp)
    if PAWTRAIL_FUZZ_SEED=$seed PAWTRAIL_FUZZ_MUTANTS=$mutants PAWTRAIL_FUZZ_VERBOSE=1 \
        swift test --skip-build --filter ActiveCheckpointFuzzTests >"$log" 2>&1; then
        grep '^fuzz:' "$log" | cut -c1-120
    else
        echo "seed $seed FAILED; last mutant: $(grep '^fuzz seed' "$log" | tail -1); log: $log"
        grep -E 'runtime failure|recorded an issue' "$log" | head -5
        exit 1
    fi
    rm -f "$log"
done
