public import Foundation

/// Every way a store operation can fail: a ``Code`` to branch on, and the details of that code.
///
/// A struct over codes rather than an enum, so that a backend can bring new codes (a server that is unavailable, an
/// outcome it cannot know, a timeout) without breaking the callers' switches: switch over ``code`` with a default,
/// or catch one code with `catch EventStoreError.Code.wrongExpectedVersion`.
///
/// The messages name the store's files or resources, never a tool's options: a CLI adds its own hints.
public struct EventStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added: a switch over codes needs a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case wrongExpectedVersion = "wrong-expected-version"
            case idempotencyConflict = "idempotency-conflict"
            case invalidRequest = "invalid-request"
            case corrupted
            case io
            case storeNotFound = "store-not-found"
            case incompatibleFormat = "incompatible-format"
            case storeFailure = "store-failure"
            case unavailable
            case outcomeUnknown = "outcome-unknown"
            case timedOut = "timed-out"
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// A stream's version did not match what the append expected. Retryable: read again and decide again.
        public static let wrongExpectedVersion = Code(.wrongExpectedVersion)
        /// An event id was committed before, but not by an identical retry of this append.
        public static let idempotencyConflict = Code(.idempotencyConflict)
        /// The request itself is malformed or exceeds a limit.
        public static let invalidRequest = Code(.invalidRequest)
        /// Stored data failed a check.
        public static let corrupted = Code(.corrupted)
        /// A system call failed.
        public static let io = Code(.io)
        /// There is no store where one was asked for.
        public static let storeNotFound = Code(.storeNotFound)
        /// The store was written by a newer format or schema than this build reads.
        public static let incompatibleFormat = Code(.incompatibleFormat)
        /// Another problem of the store's own (named in the message).
        public static let storeFailure = Code(.storeFailure)
        /// The store's server cannot be reached, or refused the connection. Nothing was written.
        public static let unavailable = Code(.unavailable)
        /// The connection was lost while an append committed: it may or may not have been written. Retrying it with
        /// the same event ids gives the original result or one fresh write, never two.
        public static let outcomeUnknown = Code(.outcomeUnknown)
        /// The store did not answer in time (a lock or a statement timeout). Nothing was written.
        public static let timedOut = Code(.timedOut)

        /// The code's name, in kebab case (`wrong-expected-version`), as machine-readable output shows it.
        public var description: String { value.rawValue }

        /// Matches an error against a code, so that `catch EventStoreError.Code.corrupted` catches that code alone.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? EventStoreError)?.code == code
        }
    }

    /// What each code carries.
    private enum Details: Hashable, Sendable {
        case conflict(stream: StreamID, expected: ExpectedVersion, actual: UInt64?)
        case eventID(UUID, reason: String)
        case message(String)
        case damage(location: String, offset: UInt64?, reason: String)
        case systemCall(operation: String, path: String, errno: Int32)
        case location(String)
        case format(location: String, found: Int, supported: Int)
    }

    /// The kind of failure.
    public let code: Code
    private let details: Details

    private init(_ code: Code, _ details: Details) {
        self.code = code
        self.details = details
    }

    // MARK: - Making errors

    /// A stream's version did not match what the append expected.
    ///
    /// - Parameters:
    ///   - stream: The stream.
    ///   - expected: What the append expected.
    ///   - actual: The stream's version, `nil` when it does not exist.
    /// - Returns: The error.
    public static func wrongExpectedVersion(stream: StreamID, expected: ExpectedVersion, actual: UInt64?) -> EventStoreError {
        EventStoreError(.wrongExpectedVersion, .conflict(stream: stream, expected: expected, actual: actual))
    }

    /// An event id was already committed, but not as an identical retry of this append (different content, another
    /// place, or only some of the append's events).
    ///
    /// - Parameters:
    ///   - eventID: The id.
    ///   - reason: How the earlier commit differs.
    /// - Returns: The error.
    public static func idempotencyConflict(eventID: UUID, reason: String) -> EventStoreError {
        EventStoreError(.idempotencyConflict, .eventID(eventID, reason: reason))
    }

    /// The request itself is malformed or exceeds a limit.
    public static func invalidRequest(_ message: String) -> EventStoreError { EventStoreError(.invalidRequest, .message(message)) }

    /// Stored data failed a check.
    ///
    /// - Parameters:
    ///   - location: The file, table or object that holds the data.
    ///   - offset: Where in it, when it has byte offsets.
    ///   - reason: What is wrong.
    /// - Returns: The error.
    public static func corrupted(location: String, offset: UInt64?, reason: String) -> EventStoreError {
        EventStoreError(.corrupted, .damage(location: location, offset: offset, reason: reason))
    }

    /// A system call failed.
    ///
    /// - Parameters:
    ///   - operation: The call (`open`, `fdatasync`).
    ///   - path: The file it was made on.
    ///   - errno: The error number it gave.
    /// - Returns: The error.
    public static func io(operation: String, path: String, errno: Int32) -> EventStoreError {
        EventStoreError(.io, .systemCall(operation: operation, path: path, errno: errno))
    }

    /// There is no store at a location.
    public static func storeNotFound(location: String) -> EventStoreError { EventStoreError(.storeNotFound, .location(location)) }

    /// The store was written by a newer format or schema than this build reads.
    ///
    /// - Parameters:
    ///   - location: The store, or the file of it that names the version.
    ///   - found: The version found.
    ///   - supported: The newest version this build reads.
    /// - Returns: The error.
    public static func incompatibleFormat(location: String, found: Int, supported: Int) -> EventStoreError {
        EventStoreError(.incompatibleFormat, .format(location: location, found: found, supported: supported))
    }

    /// Another problem of the store's own.
    public static func storeFailure(_ message: String) -> EventStoreError { EventStoreError(.storeFailure, .message(message)) }

    /// The store's server cannot be reached or refused the connection.
    public static func unavailable(_ message: String) -> EventStoreError { EventStoreError(.unavailable, .message(message)) }

    /// The connection was lost while an append committed.
    public static func outcomeUnknown(_ message: String) -> EventStoreError { EventStoreError(.outcomeUnknown, .message(message)) }

    /// The store did not answer in time.
    public static func timedOut(_ message: String) -> EventStoreError { EventStoreError(.timedOut, .message(message)) }

    // MARK: - Reading errors

    /// For ``Code/wrongExpectedVersion``: the stream, what the append expected, and the stream's version (`nil`: the
    /// stream does not exist).
    public var conflict: (stream: StreamID, expected: ExpectedVersion, actual: UInt64?)? {
        if case .conflict(let stream, let expected, let actual) = details { return (stream, expected, actual) }
        return nil
    }

    /// For ``Code/idempotencyConflict``: the event id.
    public var eventID: UUID? {
        if case .eventID(let id, _) = details { return id }
        return nil
    }

    /// Where the failure is: the damaged file or object, the file of a failed system call, the store not found or
    /// of an incompatible format.
    public var location: String? {
        switch details {
        case .damage(let location, _, _), .location(let location), .format(let location, _, _): return location
        case .systemCall(_, let path, _): return path
        case .conflict, .eventID, .message: return nil
        }
    }

    /// For ``Code/corrupted``: the byte offset in ``location``, when it has one.
    public var offset: UInt64? {
        if case .damage(_, let offset, _) = details { return offset }
        return nil
    }

    /// What is wrong, without where: the reason of a damage or an id conflict, the message of the codes that carry
    /// one, else the whole description.
    public var reason: String {
        switch details {
        case .damage(_, _, let reason), .eventID(_, let reason): return reason
        case .message(let message): return message
        default: return description
        }
    }

    /// For ``Code/io``: the error number of the failed system call.
    public var errno: Int32? {
        if case .systemCall(_, _, let code) = details { return code }
        return nil
    }

    public var description: String {
        switch details {
        case .conflict(let stream, let expected, let actual):
            let actualText = actual.map { "is at version \($0)" } ?? "does not exist"
            return "wrong expected version for stream '\(stream)': expected \(expected), but the stream \(actualText)"
        case .eventID(let id, let reason):
            return "event id \(id.uuidString.lowercased()) conflicts with an earlier append: \(reason)"
        case .message(let message):
            return message
        case .damage(let location, let offset, let reason):
            return "corrupt data in \(location)\(offset.map { " at offset \($0)" } ?? ""): \(reason)"
        case .systemCall(let operation, let path, let code):
            return "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .location(let location):
            return "no store at \(location)"
        case .format(let location, let found, let supported):
            return "\(location) was written by a newer Pawtrail (format version \(found)); this build reads format versions up to \(supported)"
        }
    }
}
