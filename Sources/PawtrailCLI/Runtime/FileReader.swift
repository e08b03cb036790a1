#if canImport(Glibc)
import Glibc
#endif

/// Reads whole input files (`--data-file`, `--batch`), `-` meaning standard input.
enum FileReader {
    /// Reads a file or stdin completely, up to a limit (so `/dev/zero` or a runaway pipe is an error, not an
    /// out-of-memory kill).
    ///
    /// - Parameters:
    ///   - path: The path, or `-` for standard input.
    ///   - limit: The most bytes accepted.
    ///   - what: What the input is, for the message (`--data-file`, `--batch`).
    /// - Returns: The bytes.
    /// - Throws: ``CommandFailure`` of kind `io` naming the path and the system error, or of kind invalid input
    ///   when the input is larger than `limit`.
    static func readAll(_ path: String, limit: Int, what: String) throws(CommandFailure) -> [UInt8] {
        let fd: Int32 = path == "-" ? 0 : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { if fd != 0 { close(fd) } }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit {
                let name = path == "-" ? "standard input" : path
                throw .invalidInput("\(what) \(name) is larger than \(limit) bytes, the most it may hold")
            }
        }
    }

    private static func failure(_ operation: String, _ path: String) -> CommandFailure {
        let code = errno
        let name = path == "-" ? "standard input" : path
        return .io("cannot \(operation) \(name): \(String(cString: strerror(code))) (errno \(code))")
    }
}
