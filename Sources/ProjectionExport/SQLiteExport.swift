import CSQLite3
import Foundation
import PawtrailIO
public import PawtrailJSON

/// Writes read models as SQLite tables an operator can query: each dictionary of a state (records with a `key`)
/// becomes a table `<projection>_<member>` with a `key` column and one column per field (nested objects flattened
/// as `a_b`, lists as JSON text); a state's plain values become one row of table `<projection>`.
public enum SQLiteExport {
    /// One table.
    public struct Table: Sendable {
        public var name: String
        public var columns: [String]
        public var rows: [[JSONValue]]
    }

    /// The tables of one projection's state JSON.
    public static func tables(name: String, state: JSONValue) -> [Table] {
        let base = sanitize(name)
        var scalars: [(String, JSONValue)] = []
        var tables: [Table] = []
        for pair in state.objectPairs ?? [] {
            if case .array(let items) = pair.value, items.allSatisfy({ $0.objectPairs != nil }) {
                tables.append(table(base + "_" + sanitize(pair.key), items))
            } else {
                flatten(pair.value, prefix: sanitize(pair.key), into: &scalars)
            }
        }
        if !scalars.isEmpty {
            tables.insert(Table(name: base, columns: scalars.map(\.0), rows: [scalars.map(\.1)]), at: 0)
        }
        return tables
    }

    private static func table(_ name: String, _ items: [JSONValue]) -> Table {
        var columns: [String] = []
        var seen: Set<String> = []
        var flat: [[String: JSONValue]] = []
        for (n, item) in items.enumerated() {
            var cells: [(String, JSONValue)] = []
            if item["key"] == nil { cells.append(("idx", .int(Int64(n)))) }
            flatten(item, prefix: "", into: &cells)
            for (c, _) in cells where seen.insert(c).inserted { columns.append(c) }
            flat.append(Dictionary(cells, uniquingKeysWith: { a, _ in a }))
        }
        // An empty dictionary still gets its table, with the key column its rows would have.
        if columns.isEmpty { columns = ["key"] }
        return Table(name: name, columns: columns, rows: flat.map { row in columns.map { row[$0] ?? .null } })
    }

    private static func flatten(_ value: JSONValue, prefix: String, into cells: inout [(String, JSONValue)]) {
        if let pairs = value.objectPairs {
            for p in pairs { flatten(p.value, prefix: prefix.isEmpty ? sanitize(p.key) : prefix + "_" + sanitize(p.key), into: &cells) }
        } else {
            cells.append((prefix.isEmpty ? "value" : prefix, value))
        }
    }

    private static func sanitize(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    /// Writes the tables to a new database file, in one transaction, then puts it at `path` at once: a reader of
    /// `path` sees the old file or the whole new one.
    ///
    /// - Parameters:
    ///   - tables: The tables.
    ///   - path: Where the database goes.
    ///   - replace: Whether a regular file already at `path` is replaced. Anything else there (a directory, a
    ///     device, a FIFO, a socket, a symbolic link) is never replaced.
    /// - Returns: The number of rows written.
    /// - Throws: ``SQLiteExportError``.
    public static func write(_ tables: [Table], to path: String, replace: Bool = false) throws -> Int {
        try checkTarget(path, replace: replace)
        let temporary = FileSystem.temporaryPath(for: path)
        unlink(temporary)
        var db: OpaquePointer?
        guard sqlite3_open_v2(temporary, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteExportError(message: "cannot create \(path): \(message)")
        }
        defer { sqlite3_close_v2(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                throw SQLiteExportError(message: "\(sql.prefix(80)): \(String(cString: sqlite3_errmsg(db)))")
            }
        }
        var rows = 0
        do {
            try exec("BEGIN")
            for t in tables {
                let columns = t.columns.map { "\"\($0)\"" }
                try exec("CREATE TABLE \"\(t.name)\" (\(columns.joined(separator: ", ")))")
                var statement: OpaquePointer?
                let sql = "INSERT INTO \"\(t.name)\" VALUES (\(t.columns.map { _ in "?" }.joined(separator: ", ")))"
                guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                    throw SQLiteExportError(message: "\(sql.prefix(80)): \(String(cString: sqlite3_errmsg(db)))")
                }
                defer { sqlite3_finalize(statement) }
                for row in t.rows {
                    sqlite3_reset(statement)
                    for (i, cell) in row.enumerated() {
                        let index = Int32(i + 1)
                        switch cell {
                        case .null: sqlite3_bind_null(statement, index)
                        case .int(let v): sqlite3_bind_int64(statement, index, v)
                        case .bool(let b): sqlite3_bind_int64(statement, index, b ? 1 : 0)
                        case .string(let s): sqlite3_bind_text(statement, index, s, -1, CSQLite3_transient())
                        default: sqlite3_bind_text(statement, index, cell.serialized, -1, CSQLite3_transient())
                        }
                    }
                    guard sqlite3_step(statement) == SQLITE_DONE else {
                        throw SQLiteExportError(message: "insert into \(t.name): \(String(cString: sqlite3_errmsg(db)))")
                    }
                    rows += 1
                }
            }
            try exec("COMMIT")
        } catch {
            unlink(temporary)
            throw error
        }
        defer { unlink(temporary) }
        if replace {
            // Checked again right before: what came to be there meanwhile is not replaced either, but for a moment.
            try checkTarget(path, replace: true)
            guard rename(temporary, path) == 0 else {
                throw SQLiteExportError(message: "cannot replace \(path): \(String(cString: strerror(errno)))")
            }
        } else {
            // link(2) fails if anything is at the path, atomically: nothing there is ever replaced.
            guard link(temporary, path) == 0 else {
                let code = errno
                if code == EEXIST { throw SQLiteExportError(message: "\(path) already exists; give --replace to replace it") }
                throw SQLiteExportError(message: "cannot create \(path): \(String(cString: strerror(code)))")
            }
        }
        return rows
    }

    /// Refuses a target that exists and is not to be replaced, or is not a regular file.
    private static func checkTarget(_ path: String, replace: Bool) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw SQLiteExportError(message: "cannot check \(path): \(String(cString: strerror(errno)))")
        }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let what: String
            switch kind {
            case S_IFDIR: what = "a directory"
            case S_IFLNK: what = "a symbolic link"
            case S_IFIFO: what = "a FIFO"
            case S_IFCHR, S_IFBLK: what = "a device"
            case S_IFSOCK: what = "a socket"
            default: what = "not a regular file"
            }
            throw SQLiteExportError(message: "\(path) is \(what), not a database file: it is never replaced")
        }
        guard replace else { throw SQLiteExportError(message: "\(path) already exists; give --replace to replace it") }
    }
}
