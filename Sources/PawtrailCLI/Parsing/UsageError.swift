/// A command line the parser or a command rejects: exit status 64, with the usage of the command it concerns.
struct UsageError: Error, Sendable, CustomStringConvertible {
    /// The sentence after `Error: `.
    var message: String
    /// The names from the root to the command the error concerns (`["pawtrail", "log", "append"]`).
    var commandPath: [String]

    var description: String { message }
}
