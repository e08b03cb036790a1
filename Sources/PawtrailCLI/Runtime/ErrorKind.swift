public import EventLog
public import PawtrailDomain

/// The machine-readable kind of an error, printed as `{"error":"<kind>",...}` with `--json`.
public enum ErrorKind: String, Sendable, Hashable {
    case usage
    case invalidRequest = "invalid-request"
    case idempotencyConflict = "idempotency-conflict"
    case wrongExpectedVersion = "wrong-expected-version"
    case corrupted
    case io
    case storeNotFound = "store-not-found"
    case incompatibleFormat = "incompatible-format"
    case unavailable
    case outcomeUnknown = "outcome-unknown"
    case timedOut = "timed-out"
    case failure
    // Domain rejections (see `DomainError.kind`).
    case invalidCommand = "invalid-command"
    case forbidden
    case notFound = "not-found"
    case alreadyExists = "already-exists"
    case invalidState = "invalid-state"
    case stockShort = "stock-short"
    case rejected
    case conflict

    /// The exit status of errors of this kind.
    public var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .invalidRequest, .idempotencyConflict, .invalidCommand: .dataError
        case .wrongExpectedVersion, .conflict: .tryAgain
        case .forbidden, .notFound, .alreadyExists, .invalidState, .stockShort, .rejected: .failure
        case .corrupted, .io, .storeNotFound, .incompatibleFormat, .unavailable, .outcomeUnknown, .timedOut: .ioError
        case .failure: .failure
        }
    }

    /// The kind of a domain rejection.
    public init(_ error: DomainError) {
        self = ErrorKind(rawValue: error.kind) ?? .failure
    }

    /// The kind of a store error.
    ///
    /// - Parameter error: The error.
    /// - Returns: Its kind.
    public init(_ error: EventStoreError) {
        switch error.code {
        case .wrongExpectedVersion: self = .wrongExpectedVersion
        case .idempotencyConflict: self = .idempotencyConflict
        case .invalidRequest: self = .invalidRequest
        case .corrupted: self = .corrupted
        case .storeNotFound: self = .storeNotFound
        case .incompatibleFormat: self = .incompatibleFormat
        case .unavailable: self = .unavailable
        case .outcomeUnknown: self = .outcomeUnknown
        case .timedOut: self = .timedOut
        // A store failure, or a code a newer backend brings, is the store's problem, not the user's input: it is
        // reported as an I/O error.
        default: self = .io
        }
    }
}
