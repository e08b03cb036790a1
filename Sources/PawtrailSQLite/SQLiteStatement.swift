import CSQLite3

/// A prepared statement (`sqlite3_stmt*`), finalized in `deinit`. Holds its connection so the connection
/// outlives it.
public final class SQLiteStatement {
    /// The raw handle.
    public let handle: OpaquePointer
    private let database: SQLiteDatabase
    private let sql: String

    /// Prepares `sql` on `database`.
    ///
    /// - Throws: ``SQLiteError``.
    public init(database: SQLiteDatabase, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(operation: "prepare \(sql)", code: rc, message: database.errorMessage)
        }
        handle = statement
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Steps once.
    ///
    /// - Returns: `true` for a row, `false` when done.
    /// - Throws: ``SQLiteError`` for any other result (the statement is reset first so it can be reused).
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = database.errorMessage
            sqlite3_reset(handle)
            throw SQLiteError(operation: "step \(sql)", code: rc, message: message)
        }
    }

    /// Resets the statement and clears its bindings, ready for the next use.
    public func reset() {
        // The reset's return code repeats the last step's error, which `step` already reported.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds text (copied by SQLite: the Swift string's buffer does not outlive the call).
    public func bind(_ index: Int32, text: String) throws {
        var value = text
        let rc = value.withUTF8 { buffer in
            sqlite3_bind_text(handle, index, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                Int32(buffer.count), CSQLite3_transient())
        }
        try database.check(rc, "bind text \(index) of \(sql)")
    }

    /// Binds a 64-bit integer.
    /// Binds SQL NULL.
    ///
    /// - Parameter index: The parameter, from 1.
    /// - Throws: ``SQLiteError``.
    public func bindNull(_ index: Int32) throws {
        try database.check(sqlite3_bind_null(handle, index), "bind")
    }

    public func bind(_ index: Int32, int64 value: Int64) throws {
        try database.check(sqlite3_bind_int64(handle, index, value), "bind int \(index) of \(sql)")
    }

    /// Binds a blob (copied by SQLite).
    public func bind(_ index: Int32, blob: UnsafeRawBufferPointer) throws {
        // A zero-length blob with a nil pointer would bind NULL; the NOT NULL columns must receive x''.
        let rc =
            blob.count == 0
            ? sqlite3_bind_zeroblob(handle, index, 0)
            : sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), CSQLite3_transient())
        try database.check(rc, "bind blob \(index) of \(sql)")
    }

    /// Binds a byte array as a blob.
    public func bind(_ index: Int32, bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try bind(index, blob: $0) }
    }

    /// Binds UTF-8 bytes as text (copied by SQLite).
    public func bind(_ index: Int32, utf8 bytes: [UInt8]) throws {
        let rc = bytes.withUnsafeBufferPointer { buffer in
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                CSQLite3_transient())
        }
        try database.check(rc, "bind text \(index) of \(sql)")
    }

    /// A text column's bytes, valid until the next step or reset.
    public func columnBytes(_ index: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count)
    }

    /// Whether a column of the current row is NULL.
    public func columnIsNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// An integer column of the current row.
    public func columnInt64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// A text column of the current row, decoded as UTF-8.
    public func columnText(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A blob column of the current row as raw bytes, valid until the next step or reset.
    public func columnBlob(_ index: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count)
    }
}
