#!/usr/bin/env bash
# Installs the system packages the build needs (zstd and SQLite headers, pkg-config), only those missing.
# Idempotent and quiet: does nothing when everything is installed.
set -euo pipefail
missing=()
for pkg in libzstd-dev libsqlite3-dev pkg-config; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
