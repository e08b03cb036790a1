/// The process exit statuses, following BSD sysexits where one fits so scripts can tell retryable conflicts
/// from bad input and broken stores.
public struct ExitCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Success.
    public static let success = ExitCode(rawValue: 0)
    /// The command ran and found a problem (e.g. `log verify`).
    public static let failure = ExitCode(rawValue: 1)
    /// EX_USAGE: unknown command or option, missing or malformed option value.
    public static let usage = ExitCode(rawValue: 64)
    /// EX_DATAERR: bad input data (invalid JSON, stream id, limits, idempotency conflict).
    public static let dataError = ExitCode(rawValue: 65)
    /// EX_IOERR: the store or a file could not be read or written, or is damaged.
    public static let ioError = ExitCode(rawValue: 74)
    /// EX_TEMPFAIL: wrong expected version; re-read and retry.
    public static let tryAgain = ExitCode(rawValue: 75)
}
