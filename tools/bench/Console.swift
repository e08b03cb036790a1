#if canImport(Glibc)
import BenchSupport
import Glibc
#endif

/// Output helpers: progress and diagnostics go to standard error so that standard output holds only the
/// result (the table, the JSON, or the generated JSON Lines).
///
/// Plain `write(2)` on the descriptors: the C `stdout`/`stderr` globals are not concurrency-safe in Swift 6.
enum Console {
    /// Writes a line to standard error.
    static func progress(_ line: String) {
        write(Array((line + "\n").utf8), to: 2)
    }

    /// Writes bytes to standard output.
    static func write(_ bytes: [UInt8]) {
        write(bytes, to: 1)
    }

    private static func write(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing sensible left to do with the output
                }
                offset += n
            }
        }
    }
}
