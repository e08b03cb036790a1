#!/usr/bin/env bash
# Failover on one machine, end to end through the CLI: a primary and an asynchronous hot standby (loopback sockets);
# the demo's day on the primary; views served from the standby by an app machine that keeps its read models in a
# directory of its own (--state-dir); the standby cut off while the primary takes commits it never sees; the primary
# lost (kill -9); the standby promoted; appends going on through the same two-host URL (target_session_attrs=
# read-write), at positions the lost primary had handed out already; and the app machine's read models noticing
# that the promoted log is not the one they were built from, and rebuilding. Exits non-zero when a step does not
# do what it says.
#   tools/failover.sh                          release build
#   tools/failover.sh --bin .build/debug/pawtrail   the binary the tests built (tools/test.sh runs it so)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server >/dev/null
. tools/env.sh
pawtrail=""
if [ "${1:-}" = "--bin" ]; then pawtrail="$2"; else swift build "${release[@]}" --product pawtrail 2>&1 | tail -n 1; pawtrail=.build/release/pawtrail; fi
step() { printf '\n== %s\n' "$*"; }
fail() { echo "failover.sh: $*" >&2; exit 1; }

. tools/pg-server.sh
pg_server_start 55451
primary="$pg_url"
pg_standby_start 55452
standby="$pg_standby_url"
# One URL for both servers: libpq connects to whichever accepts writes.
both="postgresql://postgres@/postgres?host=$pg_dir/sock,$pg_dir/sock&port=55451,55452&target_session_attrs=read-write"
app="$pg_dir/app-states"
pt() { "$pawtrail" "$@"; }

step "The demo's day on the primary, through the two-host URL"
pt --store "$both" demo >/dev/null
pt --store "$both" log stats | grep -E "^events"

step "An app machine serves views from the standby, keeping its read models in $app"
pt --store "$both" --read-store "$standby" --read-your-writes --state-dir "$app" view inventory | head -n 4
standby_in_recovery=$(psql -X -At "$standby" -c "SELECT pg_is_in_recovery()")
[ "$standby_in_recovery" = t ] || fail "the standby is not in recovery"

step "An append sent to the standby is refused, naming the primary"
if out=$(pt --store "$standby" log append --stream note-1 --type Noted --data '{}' 2>&1); then fail "the standby took an append"; fi
echo "$out"

step "The standby is cut off; the primary takes commits it never sees"
"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/standby" -m fast -w stop >/dev/null
before=$(pt --store "$both" log stats --json | sed 's/.*"events":\([0-9]*\).*/\1/')
for i in 1 2 3; do pt --store "$both" log append --stream "note-lost" --type Noted --data "{\"n\":$i}" >/dev/null; done
pt --store "$both" --state-dir "$app" view inventory >/dev/null
echo "the primary holds $((before + 3)) events; the app's read models are checkpointed at position $((before + 2))"

step "The primary is lost (immediate stop: no shutdown checkpoint, no goodbye to clients)"
"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w stop >/dev/null

step "The standby starts and is promoted"
"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/standby" -l "$pg_dir/standby.log" -w \
  -o "-p 55452 -k $pg_dir/sock -c listen_addresses=''" start >/dev/null
"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/standby" -w promote >/dev/null
psql -X -At "$standby" -c "SELECT 'in recovery: ' || pg_is_in_recovery() || ', WAL timeline ' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)"

step "Appends go on through the same URL, at the positions the lost primary had handed out"
after=$(pt --store "$both" log stats --json | sed 's/.*"events":\([0-9]*\).*/\1/')
[ "$after" = "$before" ] || fail "the promoted standby holds $after events, expected $before (what it had replicated)"
for i in 1 2 3 4; do pt --store "$both" log append --stream "note-new" --type Noted --data "{\"n\":$i}" >/dev/null; done
pt --store "$both" log read --all --from "$before" --json | cut -c1-110

step "The app's read models were built from the lost log: the checkpoint check notices, and they are rebuilt"
out=$(pt --store "$both" --read-store "$standby" --state-dir "$app" view inventory 2>&1 >/dev/null)
echo "$out"
echo "$out" | grep -q "does not belong to this log" || fail "the divergence went unnoticed"
fresh=$(pt --store "$both" view inventory --json)
served=$(pt --store "$both" --read-store "$standby" --state-dir "$app" view inventory --json)
[ "$fresh" = "$served" ] || fail "the rebuilt read model differs from the new primary's"
echo "rebuilt: it now agrees with the new primary's own read model"
echo
echo "failover.sh: ok"
