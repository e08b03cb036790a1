# Sourced by the tools/ scripts: puts the toolchain on PATH when it is installed but not yet there.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# Every release build links the Swift runtime and Foundation into the binary: each CLI call is a process of its
# own, and resolving the shared libraries' symbols at start-up was about half of a short command's time (23 ms
# against 11 ms for `pawtrail --help`). One set of flags for every script, so they share one build.
release=(-c release --static-swift-stdlib)

# Builds the given products in release mode (progress on stderr) and prints the directory of the binaries.
#   bin="$(release_build pawtrail pawtrail-bench)"
release_build() {
  for product in "$@"; do swift build "${release[@]}" --product "$product" >&2; done
  swift build "${release[@]}" --show-bin-path
}
