# Sourced by tools/ scripts: starts a throw-away PostgreSQL 15 in a temporary directory (a Unix socket only, the
# server's default durability; as root it runs as the postgres user, since initdb refuses root), sets `pg_url` to
# it, and stops it when the script exits unless KEEP_SERVER=1. The tests start theirs the same way
# (Sources/PostgresTestSupport).
#   . tools/pg-server.sh; pg_server_start 55439; pawtrail --store "$pg_url" ...
pg_server_start() {
  local port="$1"
  pg_bin=/usr/lib/postgresql/15/bin
  pg_dir=$(mktemp -d /tmp/pawtrail-pg.XXXXXX)
  mkdir "$pg_dir/sock"
  pg_as=()
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$pg_dir"; pg_as=(runuser -u postgres --); fi
  "${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -o "-p $port -k $pg_dir/sock -c listen_addresses=''" start >/dev/null
  trap pg_server_stop EXIT
  pg_url="postgresql://postgres@/postgres?host=$pg_dir/sock&port=$port"
}

pg_server_stop() {
  if [ -z "${KEEP_SERVER:-}" ]; then
    "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
  fi
}
