import CSQLite3

/// An open SQLite connection (`sqlite3*`), closed in `deinit`.
///
/// Not thread-safe: its owner serializes its use. Statements keep their connection alive.
public final class SQLiteDatabase {
    /// The raw handle.
    public let handle: OpaquePointer
    /// The database file.
    public let path: String

    /// How a database file is opened.
    public enum Access: Sendable {
        /// Read-write, creating the file when it is missing.
        case readWriteCreate
        /// Read-write; the file must exist.
        case readWrite
        /// Read-only; the file must exist.
        case readOnly
        /// Read-only, of a file that nothing changes while it is open (one on a read-only mount): without locks or
        /// the write-ahead log's shared memory, which a read-only directory cannot hold. A write-ahead log left
        /// beside it is not read.
        case immutable
    }

    /// Opens a database file, read-write and created if missing, or read-only.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - create: `true` to open read-write (creating the file); `false` to open an existing one read-only.
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    public convenience init(path: String, create: Bool = true) throws {
        try self.init(path: path, access: create ? .readWriteCreate : .readOnly)
    }

    /// Opens a database file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - access: Read-write (creating it or not) or read-only.
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    public init(path: String, access: Access) throws {
        var db: OpaquePointer?
        // NOMUTEX: a connection is never used by two threads at once (its owner serializes), so SQLite's own mutex
        // is pure overhead.
        let mode: Int32
        switch access {
        case .readWriteCreate: mode = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: mode = SQLITE_OPEN_READWRITE
        case .readOnly, .immutable: mode = SQLITE_OPEN_READONLY
        }
        let name = access == .immutable ? "file:" + Self.uriPath(path) + "?immutable=1" : path
        let rc = sqlite3_open_v2(name, &db, mode | SQLITE_OPEN_NOMUTEX | (access == .immutable ? SQLITE_OPEN_URI : 0), nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(operation: "open \(path)", code: rc, message: message)
        }
        handle = db
        self.path = path
    }

    /// A path as the path of an SQLite URI: every byte but letters, digits and `/-._~` percent-encoded.
    static func uriPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default: out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows we need (pragmas, DDL).
    ///
    /// - Parameter sql: One or more statements.
    /// - Throws: ``SQLiteError``.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(error)
            throw SQLiteError(operation: sql, code: rc, message: message)
        }
    }

    /// Runs a statement returning one text value (e.g. `PRAGMA journal_mode=WAL`).
    ///
    /// - Parameter sql: The statement.
    /// - Returns: The first column of the first row, `nil` when there is no row.
    /// - Throws: ``SQLiteError``.
    public func text(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.columnText(0)
    }

    /// Prepares a statement.
    ///
    /// - Parameter sql: One statement.
    /// - Returns: The prepared statement.
    /// - Throws: ``SQLiteError``.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Sets how long a connection waits for another connection's write lock before failing with SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int32) throws {
        try check(sqlite3_busy_timeout(handle, milliseconds), "busy_timeout")
    }

    /// The connection's current error message.
    public var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Throws ``SQLiteError`` unless `rc` is `SQLITE_OK`.
    /// The linked library's version.
    public static var version: String { String(cString: sqlite3_libversion()) }

    public func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws {
        if rc != SQLITE_OK { throw SQLiteError(operation: operation(), code: rc, message: errorMessage) }
    }
}
