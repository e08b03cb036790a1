#!/usr/bin/env bash
# The demo on a PostgreSQL store: installs PostgreSQL 15 if missing, starts a throw-away server in a temporary
# directory (a Unix socket only; as root it runs as the postgres user, since initdb refuses root), runs
# `pawtrail demo` against it, shows a view, and stops the server. Extra arguments go to `pawtrail demo`.
#   tools/demo-postgres.sh [--verbose]
# To keep the server: KEEP_SERVER=1 tools/demo-postgres.sh (it prints the URL to use with --store).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server
. tools/env.sh
swift build "${release[@]}" --product pawtrail 2>&1 | tail -n 1
pawtrail=.build/release/pawtrail

bin=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/pawtrail-demo-pg.XXXXXX)
mkdir "$dir/sock"
as_server_user=()
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$dir"
  as_server_user=(runuser -u postgres --)
fi
port=55439
"${as_server_user[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${as_server_user[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir/sock -c listen_addresses=''" start >/dev/null
stop() {
  if [ -z "${KEEP_SERVER:-}" ]; then
    "${as_server_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
  fi
}
trap stop EXIT
url="postgresql://postgres@/postgres?host=$dir/sock&port=$port"

echo "PostgreSQL 15 on $dir/sock; the store: $url"
"$pawtrail" --store "$url" store init
"$pawtrail" --store "$url" demo "$@"
echo
echo "The inventory, read from the server:"
"$pawtrail" --store "$url" view inventory | head -n 8
if [ -n "${KEEP_SERVER:-}" ]; then
  echo "The server keeps running: pawtrail --store '$url' ...; stop it with: ${as_server_user[*]} $bin/pg_ctl -D $dir/data stop"
fi
