#!/usr/bin/env bash
# What replication costs an append: the same appends (1 event, 1,000 events, 8 tasks on one store's group commit)
# through the library, and `pawtrail log append` through the CLI (15 processes, p50 / p99), against one primary with
#   1. no standby,
#   2. an asynchronous hot standby (the default: an acknowledged commit may be lost at failover),
#   3. a synchronous standby (synchronous_standby_names; synchronous_commit on: the standby has flushed the commit),
#   4. remote_apply (the standby has applied it: a read there right after sees it),
# all on loopback on this machine, fsync on. Prints one table per setting.
#   tools/replication-bench.sh [--scale X]      (--scale 0.3 for a quick run)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server >/dev/null
. tools/env.sh
bin="$(release_build pawtrail pawtrail-pg-bench)"
scale=1
if [ "${1:-}" = "--scale" ]; then scale="$2"; fi

. tools/pg-server.sh
pg_server_start 55491
primary="$pg_url"
sql() { psql -X -q -At "$primary" -c "$1"; }
cli() {
  local url="$1" ms=()
  "$bin/pawtrail" --store "$url" store init >/dev/null 2>&1 || true
  python3 - "$bin/pawtrail" "$url" <<'PY'
import subprocess, sys, time
pawtrail, url = sys.argv[1:3]
ms = []
for i in range(16):
    t = time.perf_counter()
    subprocess.run([pawtrail, "--store", url, "log", "append", "--stream", f"note-{i}", "--type", "Noted", "--data", "{}"],
                   stdout=subprocess.DEVNULL, check=True)
    ms.append((time.perf_counter() - t) * 1000)
ms = sorted(ms[1:])
print(f"| `pawtrail log append` (a process each) | | {ms[len(ms) // 2]:.2f} / {ms[-1]:.2f} |")
PY
}
measure() {
  echo
  echo "### $1"
  echo
  "$bin/pawtrail-pg-bench" "$primary" --scale "$scale" --ours-only
  cli "$primary"
  psql -X -q "$primary" -c "SET client_min_messages = warning; DROP SCHEMA IF EXISTS pawtrail CASCADE" >/dev/null
}

echo "tools/replication-bench.sh $* — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), PostgreSQL $(sql 'show server_version')"
measure "No standby"
pg_standby_start 55492
standby="$pg_standby_url"
measure "An asynchronous standby"
sql "ALTER SYSTEM SET synchronous_standby_names = 'standby1'" >/dev/null; sql "SELECT pg_reload_conf()" >/dev/null
sleep 1
[ "$(sql "SELECT sync_state FROM pg_stat_replication")" = sync ] || { echo "the standby did not become synchronous" >&2; exit 1; }
measure "A synchronous standby (synchronous_commit on: flushed on both)"
sql "ALTER SYSTEM SET synchronous_commit = 'remote_apply'" >/dev/null; sql "SELECT pg_reload_conf()" >/dev/null
sleep 1
measure "A synchronous standby, remote_apply (applied on the standby before the append returns)"
echo
echo "Replay lag seen by the primary at the end: $(sql "SELECT coalesce(replay_lag::text, '0') FROM pg_stat_replication")"
