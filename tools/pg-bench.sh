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
  . tools/pg-server.sh
  pg_server_start 55441
  url="$pg_url"
fi
echo "tools/pg-bench.sh $* — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), PostgreSQL $(psql -X -At "$url" -c 'show server_version')"
echo
echo "Through the library:"
"$bench" "$url" "$@"

# Through the CLI, each command a whole process, as users run it: the demo's day played into a file store and into
# the server, then the same commands timed on both.
swift build "${release[@]}" --product pawtrail >&2
pawtrail="$(swift build "${release[@]}" --show-bin-path)/pawtrail"
files=$(mktemp -d /tmp/pawtrail-pg-bench-file.XXXXXX)
"$pawtrail" --store "$files/store" demo >/dev/null
"$pawtrail" --store "$url" demo >/dev/null
echo
echo "Through the CLI, on the demo's day (each command as its own process, 15 runs, p50 / p99 ms):"
python3 - "$pawtrail" "$files/store" "$url" <<'PY'
import subprocess, sys, time
pawtrail, file_store, url = sys.argv[1:4]
commands = [
    ("log append (one event)", lambda i: ["log", "append", "--stream", f"note-{i}", "--type", "Noted", "--data", "{}"]),
    ("view inventory --json", lambda i: ["view", "inventory", "--json"]),
    ("view dashboard --json", lambda i: ["view", "dashboard", "--json"]),
    ("log read --stream cart-u-ann --json", lambda i: ["log", "read", "--stream", "cart-u-ann", "--json"]),
]
def timed(store, argv):
    ms = []
    for i in range(15):
        t = time.perf_counter()
        subprocess.run([pawtrail, "--store", store] + argv(i), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        ms.append((time.perf_counter() - t) * 1000)
    ms.sort()
    return ms[7], ms[-1]
print("| command | file store | PostgreSQL | PostgreSQL ÷ file |")
print("|---|---|---|---|")
for name, argv in commands:
    f, p = timed(file_store, argv), timed(url, argv)
    print(f"| `{name}` | {f[0]:.1f} / {f[1]:.1f} | {p[0]:.1f} / {p[1]:.1f} | {p[0] / f[0]:.2f}x |")
PY
rm -rf "$files"
