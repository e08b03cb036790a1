# Sourced by the tools/ scripts: puts the toolchain on PATH when it is installed but not yet there.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# Builds the given products in release mode (progress on stderr) and prints the directory of the binaries.
#   bin="$(release_build pawtrail pawtrail-bench)"
release_build() {
  for product in "$@"; do swift build -c release --product "$product" >&2; done
  swift build -c release --show-bin-path
}
