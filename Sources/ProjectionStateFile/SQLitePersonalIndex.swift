import CSQLite3
public import EventLog
import Foundation
import PawtrailIO
import PawtrailSQLite
public import Projections

/// The file store's personal index: one SQLite database beside the read models (`projections/personal-index.sqlite`),
/// an entry a row with the positions it held between.
///
/// Deleted rows are overwritten (`secure_delete`) and, after an erasure, the write-ahead log that still held copies of
/// them is emptied, so an erased subject leaves no bytes in the index's files. It is derived data, flushed with
/// `synchronous=NORMAL`: a crash may lose the last commit (the next catch-up folds it again), and a damaged file is
/// made anew from the log. A store that cannot be written reads what is there; a catch-up then fails, and the
/// runtime answers from an index made in memory.
public final class SQLitePersonalIndex: PersonalIndex, @unchecked Sendable {
    /// The database file.
    public let path: String
    /// The layout (`PRAGMA user_version`); a database of another layout is made anew.
    static let layoutVersion = 4

    private let lock = NSLock()
    private var db: SQLiteDatabase?
    private var writable = false

    /// The index of a `projections` directory; nothing is opened yet.
    ///
    /// - Parameter directory: The read models' directory.
    public init(directory: String) {
        path = directory + "/personal-index.sqlite"
    }

    public func checkpoint() async throws -> (version: Int, position: UInt64)? {
        try withDatabase { db in
            guard let db else { return nil }
            let s = try db.prepare("SELECT version, position FROM checkpoint")
            guard try s.step() else { return nil }
            return (Int(s.columnInt64(0)), UInt64(bitPattern: s.columnInt64(1)))
        }
    }

    public func apply(_ changes: [PersonalIndexChange], from: UInt64?, through: UInt64, version: Int) async throws -> Bool {
        try withDatabase(write: true) { db in
            guard let db, writable else { throw EventStoreError.storeFailure("the personal index at \(path) cannot be written") }
            guard try store(changes, from: from, through: through, version: version, db) else { return false }
            // The write-ahead log still holds the erased rows' pages as they were: emptied (once the transaction's
            // statements are finalized), so an erasure is one.
            if changes.contains(where: { if case .erase = $0 { true } else { false } }) { _ = try db.text("PRAGMA wal_checkpoint(TRUNCATE)") }
            return true
        }
    }

    private func store(_ changes: [PersonalIndexChange], from: UInt64?, through: UInt64, version: Int, _ db: SQLiteDatabase) throws -> Bool {
        do {
            try db.execute("BEGIN IMMEDIATE")
            let s = try db.prepare("SELECT version, position FROM checkpoint")
            let stored: (Int, UInt64)? = try s.step() ? (Int(s.columnInt64(0)), UInt64(bitPattern: s.columnInt64(1))) : nil
            s.reset()
            guard stored?.1 == from, from == nil || stored?.0 == version else {
                try db.execute("ROLLBACK")
                return false
            }
            let close = try db.prepare("UPDATE entries SET until = ?2 WHERE subject = ?1 AND until IS NULL")
            let insert = try db.prepare(
                "INSERT OR REPLACE INTO entries(subject, since, until, sort_key, terms, entry_values) VALUES (?1, ?2, NULL, ?3, ?4, ?5)")
            let erase = try db.prepare("DELETE FROM entries WHERE subject = ?1")
            let forget = try db.prepare("DELETE FROM remembered WHERE subject = ?1")
            let remember = try db.prepare("INSERT OR REPLACE INTO remembered(position, subject, entry_values) VALUES (?1, ?2, ?3)")
            for change in changes {
                switch change {
                case .put(let subject, let entry, let at):
                    close.reset()
                    try close.bind(1, text: subject)
                    try close.bind(2, int64: Int64(bitPattern: at))
                    _ = try close.step()
                    insert.reset()
                    try insert.bind(1, text: subject)
                    try insert.bind(2, int64: Int64(bitPattern: at))
                    try insert.bind(3, text: entry.sortKey)
                    try insert.bind(4, text: " " + entry.terms.joined(separator: " "))
                    try insert.bind(5, text: entry.values.joined(separator: "\u{1F}"))
                    _ = try insert.step()
                case .erase(let subject):
                    erase.reset()
                    try erase.bind(1, text: subject)
                    _ = try erase.step()
                    forget.reset()
                    try forget.bind(1, text: subject)
                    _ = try forget.step()
                case .remember(let position, let subject, let values):
                    remember.reset()
                    try remember.bind(1, int64: Int64(bitPattern: position))
                    try remember.bind(2, text: subject)
                    try remember.bind(3, text: values.joined(separator: "\u{1F}"))
                    _ = try remember.step()
                }
            }
            try db.execute("DELETE FROM checkpoint")
            try db.execute("INSERT INTO checkpoint(version, position) VALUES (\(version), \(Int64(bitPattern: through)))")
            try db.execute("COMMIT")
            return true
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    public func reset() async throws {
        try withDatabase(write: true) { db in
            guard let db, writable else { throw EventStoreError.storeFailure("the personal index at \(path) cannot be written") }
            try db.execute("BEGIN IMMEDIATE; DELETE FROM entries; DELETE FROM remembered; DELETE FROM checkpoint; COMMIT")
            _ = try db.text("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    public func values(at positions: [UInt64]) async throws -> [UInt64: [String]] {
        try withDatabase { db in
            guard let db, !positions.isEmpty else { return [:] }
            let s = try db.prepare("SELECT entry_values FROM remembered WHERE position = ?1")
            var out: [UInt64: [String]] = [:]
            for p in positions {
                s.reset()
                try s.bind(1, int64: Int64(bitPattern: p))
                if try s.step() { out[p] = s.columnText(0).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
            }
            return out
        }
    }

    public func rememberedPositions() async throws -> [UInt64] {
        try withDatabase { db in
            guard let db else { return [] }
            let s = try db.prepare("SELECT position FROM remembered ORDER BY position")
            var out: [UInt64] = []
            while try s.step() { out.append(UInt64(bitPattern: s.columnInt64(0))) }
            return out
        }
    }

    public func entry(of subject: String) async throws -> PersonalIndexEntry? {
        try withDatabase { db in
            guard let db else { return nil }
            let s = try db.prepare("SELECT sort_key, terms, entry_values FROM entries WHERE subject = ?1 AND until IS NULL")
            try s.bind(1, text: subject)
            guard try s.step() else { return nil }
            return PersonalIndexEntry(
                values: s.columnText(2).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init),
                sortKey: s.columnText(0), terms: s.columnText(1).split(separator: " ").map(String.init))
        }
    }

    public func subjects(asOf position: UInt64, matching words: [String], offset: Int, limit: Int) async throws -> (subjects: [String], total: Int) {
        try withDatabase { db in
            guard let db else { return ([], 0) }
            // A word matches the start of a term: the terms are stored after a space each, and a word holds no space.
            let match = words.indices.map { " AND instr(terms, ?\($0 + 2)) > 0" }.joined()
            // As of the stored position or later, the entries that hold are the present ones, which their own index
            // covers (`until` in it too, or SQLite reads each row to test it): a count or a search reads them, not
            // every past entry.
            let stored = try db.prepare("SELECT position FROM checkpoint")
            let present = try stored.step() && UInt64(bitPattern: stored.columnInt64(0)) <= position
            stored.reset()
            let live = (present ? "until IS NULL AND ?1 = ?1" : "since <= ?1 AND (until IS NULL OR until > ?1)") + match
            func bind(_ s: SQLiteStatement) throws {
                try s.bind(1, int64: Int64(bitPattern: position))
                for (i, w) in words.enumerated() { try s.bind(Int32(i + 2), text: " " + w) }
            }
            let count = try db.prepare("SELECT count(*) FROM entries WHERE " + live)
            try bind(count)
            let total = try count.step() ? Int(count.columnInt64(0)) : 0
            let page = try db.prepare(
                "SELECT subject FROM entries WHERE \(live) ORDER BY sort_key, subject LIMIT \(min(limit, Int(Int64.max))) OFFSET \(offset)")
            try bind(page)
            var out: [String] = []
            while try page.step() { out.append(page.columnText(0)) }
            return (out, total)
        }
    }

    /// Runs `body` with the database, opened at first use: `nil` when a read finds no file (a read never makes one,
    /// so an erasure that asks whether the index was built leaves none behind), or when a write cannot make it.
    private func withDatabase<T>(write: Bool = false, _ body: (SQLiteDatabase?) throws -> T) throws -> T {
        try lock.withLock {
            if db == nil || (write && !writable) {
                guard write || FileSystem.exists(path) else { return try body(nil) }
                if let made = try? Self.open(path, writable: true) {
                    (db, writable) = (made, true)
                } else if Self.isDamaged(path), Self.discard(path), let made = try? Self.open(path, writable: true) {
                    // Derived data: a damaged file is made anew from the log.
                    (db, writable) = (made, true)
                } else if FileSystem.exists(path) {
                    (db, writable) = (try Self.open(path, writable: false), false)
                }
            }
            return try body(db)
        }
    }

    /// Whether the file is there but does not open as a database of this layout, or fails its integrity check.
    private static func isDamaged(_ path: String) -> Bool {
        guard FileSystem.exists(path), let db = try? SQLiteDatabase(path: path, access: .readOnly) else { return false }
        guard let check = try? db.text("PRAGMA quick_check") else { return true }
        return check != "ok"
    }

    /// Removes the file and its write-ahead log; `false` when they cannot be removed (a read-only mount).
    private static func discard(_ path: String) -> Bool {
        for file in [path, path + "-wal", path + "-shm"] where FileSystem.exists(file) {
            guard (try? FileSystem.removeFile(file)) != nil else { return false }
        }
        return true
    }

    private static func open(_ path: String, writable: Bool) throws -> SQLiteDatabase {
        if writable { try FileSystem.createDirectories((path as NSString).deletingLastPathComponent) }
        let db = try SQLiteDatabase(path: path, access: writable ? .readWriteCreate : .readOnly)
        // A database in WAL mode opens read-only only where its shared-memory file can be made: on a read-only
        // mount it is read as immutable.
        guard writable else { return (try? db.text("PRAGMA schema_version")) != nil ? db : try SQLiteDatabase(path: path, access: .immutable) }
        try db.setBusyTimeout(milliseconds: 2_000)
        _ = try db.text("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA secure_delete=ON")
        if Int(try db.text("PRAGMA user_version") ?? "0") != layoutVersion {
            try db.execute(
                """
                BEGIN IMMEDIATE;
                DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS remembered; DROP TABLE IF EXISTS checkpoint;
                CREATE TABLE entries(
                    subject TEXT NOT NULL, since INTEGER NOT NULL, until INTEGER, sort_key TEXT NOT NULL, terms TEXT NOT NULL,
                    entry_values TEXT NOT NULL, PRIMARY KEY(subject, since)) WITHOUT ROWID;
                CREATE INDEX entries_order ON entries(sort_key, subject);
                CREATE INDEX entries_present ON entries(sort_key, subject, terms, until) WHERE until IS NULL;
                CREATE TABLE remembered(position INTEGER PRIMARY KEY, subject TEXT NOT NULL, entry_values TEXT NOT NULL);
                CREATE INDEX remembered_subject ON remembered(subject);
                CREATE TABLE checkpoint(version INTEGER NOT NULL, position INTEGER NOT NULL);
                PRAGMA user_version=\(layoutVersion);
                COMMIT;
                """)
        }
        return db
    }
}
