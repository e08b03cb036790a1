#if canImport(Glibc)
import Glibc
#endif

/// Reads lines from a file or standard input as they arrive: `exec` runs each command when its line is read, so a
/// client can keep one `exec -` open on a pipe and talk to it line by line. A line longer than the limit is read
/// past (never held) and reported as too long, so one runaway line costs no memory and the lines after it still run.
final class LineReader {
    /// One line, without its newline.
    enum Line {
        case text([UInt8])
        /// A line longer than the limit: its length.
        case tooLong(Int)
    }

    /// What ``next(canWait:)`` found.
    enum Next {
        case line(Line)
        /// The end of the input.
        case end
        /// No whole line yet, and reading more would wait for the writer.
        case wouldWait
    }

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let path: String
    private let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline goes on (the bytes before it hold none).
    private var searched = 0
    private var atEnd = false
    /// The bytes of a too-long line read past so far.
    private var skipped = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Opens a file, or standard input for `-`.
    ///
    /// - Parameters:
    ///   - path: The path, or `-`.
    ///   - limit: The longest line held, in bytes.
    /// - Throws: ``CommandFailure`` of kind `io` naming the path and the system error.
    init(path: String, limit: Int) throws(CommandFailure) {
        self.path = path
        self.limit = limit
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            ownsDescriptor = true
            guard fd >= 0 else { throw Self.failure("open", path) }
        }
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    /// The next line, `nil` at the end of the input. A last line without a newline counts.
    ///
    /// - Throws: ``CommandFailure`` of kind `io` when the input cannot be read.
    func next() throws(CommandFailure) -> Line? {
        switch try next(canWait: true) {
        case .line(let line): line
        case .end, .wouldWait: nil
        }
    }

    /// The next line, or, with `canWait` false, ``Next/wouldWait`` when none is whole and no more input is there yet
    /// (call again later: nothing read is lost).
    ///
    /// - Throws: ``CommandFailure`` of kind `io` when the input cannot be read.
    func next(canWait: Bool) throws(CommandFailure) -> Next {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                defer {
                    start = newline + 1
                    searched = start
                    skipped = 0
                }
                if skipped > 0 { return .line(.tooLong(skipped + newline - start)) }
                return .line(.text(Array(buffer[start..<newline])))
            }
            if atEnd {
                guard start < buffer.count || skipped > 0 else { return .end }
                defer {
                    buffer = []
                    start = 0
                    searched = 0
                    skipped = 0
                }
                if skipped > 0 { return .line(.tooLong(skipped + buffer.count - start)) }
                return .line(.text(Array(buffer[start...])))
            }
            if buffer.count - start > limit {
                // Too long to hold: count it and keep only what is after it once its newline comes.
                skipped += buffer.count - start
                buffer = []
                start = 0
            } else if start > 0 && start >= buffer.count / 2 {
                buffer.removeFirst(start)
                start = 0
            }
            searched = buffer.count
            if !canWait && !inputReady() { return .wouldWait }
            try fill()
        }
    }

    /// Whether a read would return at once (input, its end, or an error are there).
    private func inputReady() -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&p, 1, 0)
            if n < 0 && errno == EINTR { continue }
            // A descriptor poll cannot wait on (none is, here) reads as ready: the read then says what it is.
            return n != 0
        }
    }

    /// Reads what is there (blocking until something is, or the end).
    private func fill() throws(CommandFailure) {
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure("read", path)
            }
            if n == 0 { atEnd = true } else { buffer.append(contentsOf: chunk[0..<n]) }
            return
        }
    }

    private static func failure(_ operation: String, _ path: String) -> CommandFailure {
        let code = errno
        let name = path == "-" ? "standard input" : path
        return .io("cannot \(operation) \(name): \(String(cString: strerror(code))) (errno \(code))")
    }
}
