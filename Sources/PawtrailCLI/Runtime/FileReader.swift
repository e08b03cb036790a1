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
        // A regular file's size is known: it is read straight into an array of that size (a file that grew since
        // the stat is read on in chunks). A pipe is read in chunks.
        var st = stat()
        let size = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
        func tooLarge() -> CommandFailure {
            .invalidInput("\(what) \(path == "-" ? "standard input" : path) is larger than \(limit) bytes, the most it may hold")
        }
        guard size <= limit else { throw tooLarge() }
        var out: [UInt8] = []
        if size > 0 {
            var failed = false
            out = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                while count < size {
                    let n = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failed = true
                        return
                    }
                    if n == 0 { return }
                    count += n
                }
            }
            if failed { throw failure("read", path) }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw tooLarge() }
        }
    }

    private static func failure(_ operation: String, _ path: String) -> CommandFailure {
        let code = errno
        let name = path == "-" ? "standard input" : path
        return .io("cannot \(operation) \(name): \(String(cString: strerror(code))) (errno \(code))")
    }
}
