/// Why bytes are not valid JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based byte offset of the problem in the scanned bytes.
    public var offset: Int
    /// What is wrong (`expected ':' after an object key`).
    public var message: String

    /// `expected ... (column 12)`; columns are 1-based bytes, which is what editors show for ASCII.
    public var description: String { "\(message) (column \(offset + 1))" }
}
