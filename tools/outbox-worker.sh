#!/usr/bin/env bash
# A sending worker for Pawtrail's outbox: reads the notifications due now, takes them in one `outbox mark-sent`,
# and sends only those its own answer recorded. Another worker running at the same time takes the rest, never the
# same ones: a notification's stream is written only if new. Sending here prints one line per notification
#   SENT <id> <user> <language> <text>
# standing in for an email, SMS or push gateway. A worker that dies after taking and before sending loses those
# (at most once); swap the two steps for at least once.
#
# Usage: tools/outbox-worker.sh --store PATH|URL --as STAFF [--once] [--interval SECONDS] [--now TIME]
#   --now fixes the clock (for scripts and tests); by default each round uses the current UTC time.
#   $PAWTRAIL names the binary (default: pawtrail on PATH, else .build/release/pawtrail).
set -euo pipefail
store="" actor="" once=0 interval=30 fixed_now=""
while [ $# -gt 0 ]; do
  case "$1" in
    --store) store="$2"; shift 2 ;;
    --as) actor="$2"; shift 2 ;;
    --once) once=1; shift ;;
    --interval) interval="$2"; shift 2 ;;
    --now) fixed_now="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "Error: unknown option '$1'" >&2; exit 64 ;;
  esac
done
[ -n "$store" ] && [ -n "$actor" ] || { echo "Error: --store and --as are required" >&2; exit 64; }
bin="${PAWTRAIL:-$(command -v pawtrail || echo .build/release/pawtrail)}"

round() {
  local now="${fixed_now:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}"
  local pending taken id args=()
  pending="$("$bin" --store "$store" outbox pending --as "$actor" --now "$now" --limit 500 --json)"
  for id in $(grep -o '"notificationId":"[^"]*"' <<<"$pending" | cut -d'"' -f4 | sort -u | head -n 500); do
    args+=(--notification-ids "$id")
  done
  [ ${#args[@]} -gt 0 ] || return 0
  taken="$("$bin" --store "$store" outbox mark-sent --as "$actor" "${args[@]}" --json)"
  for id in $(grep -o '"notificationId":"[^"]*"' <<<"$taken" | cut -d'"' -f4); do
    # The pending entry of this id: its recipient, language and text.
    entry="$(grep -o "{\"notificationId\":\"$id\"[^}]*}" <<<"$pending" | head -1)"
    user="$(grep -o '"userId":"[^"]*"' <<<"$entry" | cut -d'"' -f4)"
    language="$(grep -o '"language":"[^"]*"' <<<"$entry" | cut -d'"' -f4)"
    text="$(grep -o '"text":"[^"]*"' <<<"$entry" | cut -d'"' -f4-)"
    echo "SENT $id $user $language ${text%\"}"
  done
}

while true; do
  round
  [ "$once" = 1 ] && break
  sleep "$interval"
done
