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

# A hot standby of the server pg_server_start started: a base backup with streaming replication (-R), started on
# another port of the same socket directory; sets `pg_standby_url`. Extra arguments are server options (-c ...).
#   pg_standby_start 55440 [-c synchronous_commit=...]
pg_standby_start() {
  local port="$1"; shift
  "${pg_as[@]}" "$pg_bin/pg_basebackup" -d "$pg_url" -D "$pg_dir/standby" -R -X stream -c fast >/dev/null
  "${pg_as[@]}" sed -i "s/primary_conninfo = '/primary_conninfo = 'application_name=standby1 /" "$pg_dir/standby/postgresql.auto.conf"
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/standby" -l "$pg_dir/standby.log" -w \
    -o "-p $port -k $pg_dir/sock -c listen_addresses='' -c hot_standby_feedback=on $*" start >/dev/null
  pg_standby_url="postgresql://postgres@/postgres?host=$pg_dir/sock&port=$port"
}

pg_server_stop() {
  if [ -z "${KEEP_SERVER:-}" ]; then
    for data in standby data; do
      [ -d "$pg_dir/$data" ] && { "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/$data" -m fast -w stop >/dev/null 2>&1 || true; }
    done
    rm -rf "$pg_dir"
  fi
}
