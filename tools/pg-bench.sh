#!/usr/bin/env bash
# The PostgreSQL store against a plain identity-keyed event table with UNIQUE (stream, version) (the gappy baseline
# most stores on PostgreSQL use), in one run, on one throw-away PostgreSQL 15 with its default durability (fsync on,
# synchronous_commit on), through the library: appends of 1, 10, 100 and 1,000 events, and 8 writers at once.
#   tools/pg-bench.sh [--scale X]        (--scale 0.2 for a quick run)
# Or against a server of yours: PAWTRAIL_POSTGRES_URL=postgresql://... tools/pg-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server
. tools/env.sh
swift build "${release[@]}" --product pawtrail-pg-bench >&2
bench="$(swift build "${release[@]}" --show-bin-path)/pawtrail-pg-bench"

url="${PAWTRAIL_POSTGRES_URL:-}"
if [ -z "$url" ]; then
  bin=/usr/lib/postgresql/15/bin
  dir=$(mktemp -d /tmp/pawtrail-pg-bench.XXXXXX)
  mkdir "$dir/sock"
  as=()
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir"; as=(runuser -u postgres --); fi
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p 55441 -k $dir/sock -c listen_addresses=''" start >/dev/null
  trap '"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
  url="postgresql://postgres@/postgres?host=$dir/sock&port=55441"
fi
echo "tools/pg-bench.sh $* — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), PostgreSQL $("$bench" --version 2>/dev/null || psql -X -At "$url" -c 'show server_version')"
"$bench" "$url" "$@"
