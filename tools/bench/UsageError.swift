/// A command-line mistake, reported with the usage text.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
