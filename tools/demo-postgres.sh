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

. tools/pg-server.sh
pg_server_start 55439
url="$pg_url"
echo "PostgreSQL 15 on $pg_dir/sock; the store: $url"
"$pawtrail" --store "$url" store init
"$pawtrail" --store "$url" demo "$@"
echo
echo "The inventory, read from the server:"
"$pawtrail" --store "$url" view inventory | head -n 8
if [ -n "${KEEP_SERVER:-}" ]; then
  echo "The server keeps running: pawtrail --store '$url' ...; stop it with: ${pg_as[*]} $pg_bin/pg_ctl -D $pg_dir/data stop"
fi
