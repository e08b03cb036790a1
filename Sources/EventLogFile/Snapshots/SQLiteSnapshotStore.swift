import CSQLite3
public import EventLog
import Foundation
import PawtrailIO
import PawtrailSQLite

/// The file log's snapshots of stream states: one SQLite database in the store's directory
/// (`snapshots/streams.sqlite`), a row per stream and kind of fold.
///
/// A cache, written without flushing (`synchronous=OFF` in WAL mode): a crash may lose the last snapshots, and a
/// power loss may damage the file, which then counts as empty and is made anew; each row carries a CRC-32C of its
/// fields, so a damaged row reads as missing. A command saves in one short transaction; when another process holds
/// the database's write lock for longer than ``busyTimeoutMilliseconds``, the save fails and the caller lets it go.
/// A store that cannot be written (a read-only mount) reads what is there and saves nothing.
///
/// The database opens at first use, not with the store: commands that read no stream state never pay for it.
public final class SQLiteSnapshotStore: SnapshotStore, @unchecked Sendable {
    /// The database file.
    public let path: String
    /// The most a save waits for another process's transaction.
    public static let busyTimeoutMilliseconds: Int32 = 200
    /// The layout of the table (`PRAGMA user_version`); a database of another layout is made anew (layout 1 had no
    /// tags, so its snapshots of conversations could not be found by their customer: a cache, they are made again).
    static let layoutVersion = 2

    private let lock = NSLock()
    private var connection: Connection?
    private var opened = false

    /// An open database and its prepared statements.
    private final class Connection {
        let db: SQLiteDatabase
        let writable: Bool
        let select: SQLiteStatement
        let upsert: SQLiteStatement?

        init(db: SQLiteDatabase, writable: Bool) throws {
            self.db = db
            self.writable = writable
            select = try db.prepare(
                "SELECT schema, version, position, event_id, state, checksum, subject FROM snapshots WHERE kind = ?1 AND stream = ?2")
            upsert =
                writable
                ? try db.prepare(
                    "INSERT OR REPLACE INTO snapshots(kind, stream, schema, version, position, event_id, state, checksum, subject) "
                        + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)") : nil
        }
    }

    /// Creates the store of a log directory; nothing is opened yet.
    ///
    /// - Parameter storePath: The log's directory.
    public init(storePath: String) {
        path = storePath + "/" + LogFormat.snapshotsDirectory + "/streams.sqlite"
    }

    // MARK: - SnapshotStore

    public func snapshot(of stream: StreamID, kind: String) async throws -> StreamSnapshot? {
        try withConnection { c in
            guard let c else { return nil }
            let s = c.select
            defer { s.reset() }
            try s.bind(1, text: kind)
            try s.bind(2, text: stream.rawValue)
            guard try s.step(), let eventID = Self.uuid(Array(s.columnBlob(3))) else { return nil }
            let snapshot = StreamSnapshot(
                stream: stream, kind: kind, schemaVersion: Int(s.columnInt64(0)), version: UInt64(bitPattern: s.columnInt64(1)),
                position: UInt64(bitPattern: s.columnInt64(2)), eventID: eventID, state: Array(s.columnBlob(4)),
                subject: s.columnIsNull(6) ? nil : s.columnText(6))
            guard UInt32(truncatingIfNeeded: s.columnInt64(5)) == Self.checksum(snapshot) else { return nil }
            return snapshot
        }
    }

    public func save(_ snapshots: [StreamSnapshot]) async throws {
        guard !snapshots.isEmpty else { return }
        try withConnection { c in
            guard let c, let upsert = c.upsert else {
                throw EventStoreError.storeFailure("the snapshots at \(path) cannot be written")
            }
            try c.db.execute("BEGIN IMMEDIATE")
            do {
                for snapshot in snapshots {
                    defer { upsert.reset() }
                    try upsert.bind(1, text: snapshot.kind)
                    try upsert.bind(2, text: snapshot.stream.rawValue)
                    try upsert.bind(3, int64: Int64(snapshot.schemaVersion))
                    try upsert.bind(4, int64: Int64(bitPattern: snapshot.version))
                    try upsert.bind(5, int64: Int64(bitPattern: snapshot.position))
                    try upsert.bind(6, bytes: withUnsafeBytes(of: snapshot.eventID.uuid) { Array($0) })
                    try upsert.bind(7, bytes: snapshot.state)
                    try upsert.bind(8, int64: Int64(Self.checksum(snapshot)))
                    if let subject = snapshot.subject { try upsert.bind(9, text: subject) } else { try upsert.bindNull(9) }
                    try upsert.step()
                }
                try c.db.execute("COMMIT")
            } catch {
                try? c.db.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func forEach(_ body: (StreamSnapshot) throws -> Bool) async throws {
        try withConnection { c in
            guard let c else { return }
            let s = try c.db.prepare("SELECT kind, stream, schema, version, position, event_id, state, checksum, subject FROM snapshots")
            while try s.step() {
                guard let eventID = Self.uuid(Array(s.columnBlob(5))) else { continue }
                let snapshot = StreamSnapshot(
                    stream: StreamID(unchecked: s.columnText(1)), kind: s.columnText(0), schemaVersion: Int(s.columnInt64(2)),
                    version: UInt64(bitPattern: s.columnInt64(3)), position: UInt64(bitPattern: s.columnInt64(4)),
                    eventID: eventID, state: Array(s.columnBlob(6)), subject: s.columnIsNull(8) ? nil : s.columnText(8))
                // A damaged row is not a snapshot: it reads as missing here too.
                guard UInt32(truncatingIfNeeded: s.columnInt64(7)) == Self.checksum(snapshot) else { continue }
                guard try body(snapshot) else { return }
            }
        }
    }

    public func remove(stream: StreamID, kind: String) async throws {
        try withConnection { c in
            guard let c else { return }
            guard c.writable else { throw EventStoreError.storeFailure("the snapshots at \(path) cannot be written") }
            let s = try c.db.prepare("DELETE FROM snapshots WHERE kind = ?1 AND stream = ?2")
            try s.bind(1, text: kind)
            try s.bind(2, text: stream.rawValue)
            try s.step()
            // The write-ahead log may still hold earlier copies of the row: emptied, so a removal is an erasure.
            _ = try c.db.text("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    public func removeAll(taggedWith subject: String) async throws {
        try withConnection { c in
            guard let c else { return }
            guard c.writable else { throw EventStoreError.storeFailure("the snapshots at \(path) cannot be written") }
            let s = try c.db.prepare("DELETE FROM snapshots WHERE subject = ?1")
            try s.bind(1, text: subject)
            try s.step()
        }
        // Once the deletion's statement is finalized: the write-ahead log may still hold earlier copies of the rows.
        try withConnection { c in
            guard let c, c.writable else { return }
            _ = try c.db.text("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    public func removeAll() async throws {
        try withConnection { c in
            guard let c else { return }
            guard c.writable else { throw EventStoreError.storeFailure("the snapshots at \(path) cannot be written") }
            // The rows' bytes are overwritten (secure_delete), and the write-ahead log that still held earlier copies
            // of them is emptied.
            try c.db.execute("DELETE FROM snapshots")
            _ = try c.db.text("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    // MARK: - The database

    /// Runs `body` with the open database (`nil` when there is none and none can be made), under the lock. A
    /// database SQLite finds damaged is put aside and made anew (it is a cache); other SQLite failures are I/O errors.
    private func withConnection<T>(_ body: (Connection?) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if !opened {
            opened = true
            connection = openConnection()
        }
        do {
            return try body(connection)
        } catch let e as SQLiteError where Self.isDamage(e) {
            connection = nil
            if Self.discard(path) { connection = openConnection() }
            return try body(connection)
        } catch let e as SQLiteError {
            throw EventStoreError.storeFailure("snapshots (\(path)): \(e)")
        }
    }

    /// Opens the database read-write, creating it when its directory can be written; else read-only; else none.
    ///
    /// Only a file SQLite calls damaged or not a database, or one of another layout, is made anew. A database that
    /// is busy, or that another process is creating at this moment (empty, no layout yet), is never removed: that
    /// process would go on writing a file no one else sees. This process then reads what it can, or does without.
    private func openConnection() -> Connection? {
        let directory = FileSystem.directoryName(of: path)
        if !FileSystem.exists(path) {
            guard (try? FileSystem.createDirectories(directory)) != nil else { return nil }
        }
        do {
            return try Self.open(path, writable: true)
        } catch let e as SQLiteError where Self.isDamage(e) {
            if Self.discard(path), let c = try? Self.open(path, writable: true) { return c }
        } catch {}
        return try? Self.open(path, writable: false)
    }

    private static func open(_ path: String, writable: Bool) throws -> Connection {
        let db = try SQLiteDatabase(path: path, access: writable ? .readWriteCreate : .readOnly)
        if writable {
            try db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            _ = try db.text("PRAGMA journal_mode=WAL")
            try db.execute("PRAGMA synchronous=OFF")
            // A snapshot replaced or removed leaves no copy of its state in freed pages: a state may hold personal
            // data of an account that is later erased.
            try db.execute("PRAGMA secure_delete=ON")
            if try layout(of: db) != layoutVersion {
                // The table and its layout number in one transaction: another process sees both or neither.
                try db.execute("BEGIN IMMEDIATE")
                do {
                    let layout = try layout(of: db)
                    if layout == 0 {
                        try db.execute(
                            """
                            CREATE TABLE IF NOT EXISTS snapshots(
                                kind TEXT NOT NULL, stream TEXT NOT NULL, schema INTEGER NOT NULL, version INTEGER NOT NULL,
                                position INTEGER NOT NULL, event_id BLOB NOT NULL, state BLOB NOT NULL, checksum INTEGER NOT NULL,
                                subject TEXT, PRIMARY KEY(kind, stream)) WITHOUT ROWID;
                            CREATE INDEX snapshots_subject ON snapshots(subject) WHERE subject IS NOT NULL;
                            PRAGMA user_version=\(layoutVersion);
                            """)
                    } else if layout != layoutVersion {
                        throw SQLiteError(operation: "open \(path)", code: SQLITE_NOTADB, message: "snapshot layout \(layout), expected \(layoutVersion)")
                    }
                    try db.execute("COMMIT")
                } catch {
                    try? db.execute("ROLLBACK")
                    throw error
                }
            }
        }
        return try Connection(db: db, writable: writable)
    }

    /// The database's layout number: 0 for one not made yet.
    private static func layout(of db: SQLiteDatabase) throws -> Int {
        Int(try db.text("PRAGMA user_version") ?? "0") ?? 0
    }

    /// Whether an error says the file is damaged, not a database, or of another layout: what is made anew.
    private static func isDamage(_ e: SQLiteError) -> Bool {
        e.code == SQLITE_CORRUPT || e.code == SQLITE_NOTADB
    }

    /// Removes a damaged database and its journal files; `false` when they cannot be removed.
    private static func discard(_ path: String) -> Bool {
        for suffix in ["-wal", "-shm", ""] where FileSystem.exists(path + suffix) {
            guard (try? FileSystem.removeFile(path + suffix)) != nil else { return false }
        }
        return true
    }

    // MARK: - Rows

    private static func uuid(_ bytes: [UInt8]) -> UUID? {
        guard bytes.count == 16 else { return nil }
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// The CRC-32C of a row's fields, each delimited, so that no field's bytes can pass for another's.
    static func checksum(_ s: StreamSnapshot) -> UInt32 {
        var crc = CRC32C()
        var kind = s.kind
        kind.withUTF8 { crc.update(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(0)) { crc.update($0) }
        var stream = s.stream.rawValue
        stream.withUTF8 { crc.update(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(0)) { crc.update($0) }
        withUnsafeBytes(of: Int64(s.schemaVersion).littleEndian) { crc.update($0) }
        withUnsafeBytes(of: s.version.littleEndian) { crc.update($0) }
        withUnsafeBytes(of: s.position.littleEndian) { crc.update($0) }
        withUnsafeBytes(of: s.eventID.uuid) { crc.update($0) }
        s.state.withUnsafeBytes { crc.update($0) }
        // Untagged rows keep the checksum of the layout before tags.
        if var subject = s.subject {
            withUnsafeBytes(of: UInt8(1)) { crc.update($0) }
            subject.withUTF8 { crc.update(UnsafeRawBufferPointer($0)) }
        }
        return crc.value
    }
}
