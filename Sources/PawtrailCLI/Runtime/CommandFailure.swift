/// An error a command raises itself (bad input it parsed, a file it could not read), with its kind.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// The kind, which decides the exit status.
    var kind: ErrorKind
    /// The sentence after `Error: `.
    var message: String

    var description: String { message }

    /// Bad input data (exit 65).
    static func invalidInput(_ message: String) -> CommandFailure {
        CommandFailure(kind: .invalidRequest, message: message)
    }

    /// An I/O problem outside the store (exit 74).
    static func io(_ message: String) -> CommandFailure {
        CommandFailure(kind: .io, message: message)
    }
}
