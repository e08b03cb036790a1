#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The process's stdout and stderr, written with `write(2)`: stdout is buffered (a `log read` of a million
/// events must not make a million system calls), stderr is not.
public final class StandardConsole: Console {
    private let buffer = Mutex<[UInt8]>([])
    private static let flushThreshold = 64 << 10

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
            Self.writeAll(Array(text.utf8), to: 2)
        }
    }

    public func flush() {
        let pending = buffer.withLock { b in
            defer { b.removeAll(keepingCapacity: true) }
            return b
        }
        if !pending.isEmpty { Self.writeAll(pending, to: 1) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe or full disk: nothing sensible is left to report it on
                }
                offset += n
            }
        }
    }
}
