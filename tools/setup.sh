#!/usr/bin/env bash
# Installs what Pawtrail needs on a fresh Debian 12 machine (as root), skipping what is already there:
# the C libraries it wraps (libzstd, libsqlite3, libpq, libsodium), pkg-config and tzdata (the business's time zone); with --postgres-server also PostgreSQL 15,
# whose binaries the tests start a throw-away server from (tools/test.sh), and gdb, which prints the stacks of a test run
# that hangs (tools/bounded.sh).
set -euo pipefail
packages=(libzstd-dev libsqlite3-dev libpq-dev libsodium-dev pkg-config tzdata)
if [ "${1:-}" = "--postgres-server" ]; then packages+=(postgresql-15 gdb); fi
missing=()
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
  echo "setup: no Swift toolchain found (expected swift on PATH or /opt/swift/usr/bin/swift)" >&2
  exit 1
fi
