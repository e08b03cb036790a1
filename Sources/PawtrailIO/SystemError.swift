#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, on which path, and the errno it set.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system call, e.g. `fdatasync`.
    public var operation: String
    /// The file or directory it was about.
    public var path: String
    /// The errno value.
    public var errno: Int32

    /// Creates an error.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    public var description: String {
        "\(operation) failed for \(path): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// Runs a system call, retrying on EINTR, and turns -1 into a ``SystemError`` read right away.
@inline(never)
func syscall<T: BinaryInteger>(_ operation: String, _ path: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result == -1 {
            let code = Glibc.errno
            if code == EINTR { continue }
            precondition(code != EBADF && code != EFAULT, "\(operation) on \(path): programming error, errno \(code)")
            throw SystemError(operation: operation, path: path, errno: code)
        }
        return result
    }
}
