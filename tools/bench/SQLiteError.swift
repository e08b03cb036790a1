/// A failed SQLite call: what was attempted, the result code and `sqlite3_errmsg`.
struct SQLiteError: Error, CustomStringConvertible {
    /// The operation (e.g. `prepare INSERT`).
    let operation: String
    /// The SQLite result code.
    let code: Int32
    /// The connection's error message at the time.
    let message: String

    var description: String { "SQLite \(operation) failed (\(code)): \(message)" }
}
