public import Foundation

/// Every way a store operation can fail.
public enum EventStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stream's version did not match what the append expected (`actual` nil: the stream does not exist).
    /// Retryable: re-read the stream and decide again.
    case wrongExpectedVersion(stream: StreamID, expected: ExpectedVersion, actual: UInt64?)
    /// An event id was already committed, but not as an identical retry of this append (different content,
    /// another place, or only some of the append's events).
    case idempotencyConflict(eventID: UUID, reason: String)
    /// The request itself is malformed or exceeds a limit.
    case invalidRequest(String)
    /// Stored data failed a check. `file` names the segment or index file, `offset` the byte offset.
    case corrupted(file: String, offset: UInt64, reason: String)
    /// A system call failed.
    case io(operation: String, path: String, errno: Int32)
    /// There is no store at the path.
    case storeNotFound(path: String)
    /// The store was written by a newer format than this build reads.
    case incompatibleFormat(path: String, found: Int, supported: Int)
    /// Another problem with the store (named).
    case storeFailure(String)

    public var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            let actualText = actual.map { "is at version \($0)" } ?? "does not exist"
            return "wrong expected version for stream '\(stream)': expected \(expected), but the stream \(actualText)"
        case .idempotencyConflict(let id, let reason):
            return "event id \(id.uuidString.lowercased()) conflicts with an earlier append: \(reason)"
        case .invalidRequest(let message):
            return message
        case .corrupted(let file, let offset, let reason):
            return "corrupt data in \(file) at offset \(offset): \(reason)"
        case .io(let operation, let path, let code):
            return "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .storeNotFound(let path):
            return "no store at \(path) (pass --store PATH or set PAWTRAIL_STORE; appending creates a store)"
        case .incompatibleFormat(let path, let found, let supported):
            return "\(path) was written by a newer Pawtrail (format version \(found)); this build reads format versions up to \(supported)"
        case .storeFailure(let message):
            return message
        }
    }
}
