/// What an append expects of a stream's current version (optimistic concurrency).
///
/// Versions are 0-based: a stream holding three events is at version 2.
public enum ExpectedVersion: Hashable, Sendable, CustomStringConvertible {
    /// No check: the stream may or may not exist.
    case any
    /// The stream must not exist yet (hold no events).
    case noStream
    /// The stream must hold at least one event.
    case streamExists
    /// The stream's last event must be at exactly this version.
    case exact(UInt64)

    /// Parses the CLI and JSON spelling: `any`, `no-stream`, `stream-exists` or a version number.
    ///
    /// - Parameter text: The spelling to parse.
    /// - Returns: The expected version, or `nil` if `text` is none of the accepted spellings.
    public init?(parsing text: String) {
        switch text {
        case "any": self = .any
        case "no-stream": self = .noStream
        case "stream-exists": self = .streamExists
        default:
            guard let n = UInt64(decimal: text) else { return nil }
            self = .exact(n)
        }
    }

    /// Whether a stream currently at `current` (nil: no stream) satisfies this expectation.
    ///
    /// - Parameter current: The stream's current version, `nil` if it holds no events.
    /// - Returns: `true` when an append with this expectation may proceed.
    public func isSatisfied(by current: UInt64?) -> Bool {
        switch self {
        case .any: return true
        case .noStream: return current == nil
        case .streamExists: return current != nil
        case .exact(let v): return current == v
        }
    }

    public var description: String {
        switch self {
        case .any: return "any"
        case .noStream: return "no-stream"
        case .streamExists: return "stream-exists"
        case .exact(let v): return String(v)
        }
    }
}
