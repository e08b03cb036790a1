/// Why bytes are not valid JSON, and where.
struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based byte offset of the problem in the scanned bytes.
    var offset: Int
    /// What is wrong (`expected ':' after an object key`).
    var message: String

    /// `expected ... (column 12)`; columns are 1-based bytes, which is what editors show for ASCII.
    var description: String { "\(message) (column \(offset + 1))" }
}
