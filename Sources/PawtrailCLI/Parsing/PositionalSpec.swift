/// One positional argument of a command (`SEGMENT` of `pawtrail log inspect SEGMENT`).
struct PositionalSpec: Sendable, Hashable {
    /// The placeholder shown in help (`segment` for `<segment>`).
    var name: String
    /// One line of help.
    var help: String
    /// Whether the command fails with a usage error when the argument is missing.
    var isRequired: Bool = true
    /// Whether the last positional takes any number of words (`<name> ...`).
    var isVariadic: Bool = false
}
