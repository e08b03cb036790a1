#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The process's stdout and stderr, written with `write(2)`: stdout is buffered (a `log read` of a million
/// events must not make a million system calls), stderr is not.
public final class StandardConsole: Console {
    private let buffer = Mutex<[UInt8]>([])
    private let stdoutError = Mutex<Int32?>(nil)
    private static let flushThreshold = 64 << 10

    /// The `errno` of the first write to stdout that failed (a full disk, an I/O error), if any: output was lost,
    /// so the command must not report success.
    public var standardOutputError: Int32? { stdoutError.withLock { $0 } }

    /// Creates the console.
    public init() {}

    public func write(_ text: String, to stream: ConsoleStream) {
        switch stream {
        case .standardOutput:
            let full = buffer.withLock { b in
                b.append(contentsOf: text.utf8)
                return b.count >= Self.flushThreshold
            }
            if full { flush() }
        case .standardError:
            // stdout first, so a warning never appears before the output it follows.
            flush()
            _ = Self.writeAll(Array(text.utf8), to: 2)
        }
    }

    public func flush() {
        let pending = buffer.withLock { b in
            defer { b.removeAll(keepingCapacity: true) }
            return b
        }
        guard !pending.isEmpty, let code = Self.writeAll(pending, to: 1) else { return }
        stdoutError.withLock { if $0 == nil { $0 = code } }
    }

    /// Writes every byte; returns the `errno` of a failed write (the rest is dropped), `nil` when all were written.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }
}
