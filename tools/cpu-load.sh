#!/usr/bin/env bash
# Keeps cores busy for a while, to run the tests as a slower or shared machine would (docs/testing.md):
#   tools/cpu-load.sh SECONDS [LOOPS]      LOOPS busy loops (default 2, one a core here) for SECONDS
#   tools/cpu-load.sh 1500 & tools/test.sh
set -euo pipefail
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || ! [[ "${2:-2}" =~ ^[0-9]+$ ]]; then
    echo "usage: tools/cpu-load.sh SECONDS [LOOPS]" >&2
    exit 64
fi
end=$((SECONDS + $1))
for _ in $(seq "${2:-2}"); do
    ( while [ $SECONDS -lt $end ]; do :; done ) &
done
trap 'kill $(jobs -p) 2>/dev/null' INT TERM
wait
