/// A failed SQLite call: what was attempted, the result code and `sqlite3_errmsg`.
public struct SQLiteError: Error, CustomStringConvertible {
    /// The operation (e.g. `prepare INSERT`).
    public let operation: String
    /// The SQLite result code.
    public let code: Int32
    /// The connection's error message at the time.
    public let message: String

    /// Creates an error.
    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String { "SQLite \(operation) failed (\(code)): \(message)" }
}
