import CSQLite3

/// A failed SQLite call: what was attempted, the result code and `sqlite3_errmsg`.
struct SQLiteError: Error, CustomStringConvertible {
    var operation: String
    var code: Int32
    var message: String

    var description: String { "SQLite \(operation) failed (\(code)): \(message)" }
}

/// An open SQLite connection, closed in `deinit`; one thread at a time.
final class SQLiteDatabase {
    let handle: OpaquePointer

    /// Opens (creating if `create`) a database file.
    init(path: String, create: Bool) throws {
        var db: OpaquePointer?
        let flags = (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(operation: "open \(path)", code: rc, message: message)
        }
        handle = db
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return no rows we need.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(operation: sql, code: rc, message: message)
        }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The linked library's version.
    static var version: String { String(cString: sqlite3_libversion()) }
}

/// A prepared statement, finalized in `deinit`; it keeps its connection alive.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let database: SQLiteDatabase
    private let sql: String

    init(database: SQLiteDatabase, sql: String) throws {
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

    /// Steps once: `true` for a row, `false` when done.
    @discardableResult
    func step() throws -> Bool {
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

    /// Resets the statement and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, int64 value: Int64) throws {
        let rc = sqlite3_bind_int64(handle, index, value)
        if rc != SQLITE_OK { throw SQLiteError(operation: "bind \(index) of \(sql)", code: rc, message: database.errorMessage) }
    }

    /// Binds UTF-8 text (copied by SQLite).
    func bind(_ index: Int32, text: String) throws {
        let rc = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), CSQLite3_transient())
        if rc != SQLITE_OK { throw SQLiteError(operation: "bind \(index) of \(sql)", code: rc, message: database.errorMessage) }
    }

    /// Binds UTF-8 bytes as text (copied by SQLite).
    func bind(_ index: Int32, utf8 bytes: [UInt8]) throws {
        let rc = bytes.withUnsafeBufferPointer { buffer in
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                CSQLite3_transient())
        }
        if rc != SQLITE_OK { throw SQLiteError(operation: "bind \(index) of \(sql)", code: rc, message: database.errorMessage) }
    }

    func columnInt64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// A text column as a Swift string.
    func columnText(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A text column's bytes, valid until the next step or reset.
    func columnBytes(_ index: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count)
    }
}
