import BenchSupport
import PawtrailSQLite
import CSQLite3
import EventLog
import Foundation

/// The SQLite peer: an event table as an application would build one on SQLite, written and read with the
/// same values our store takes and returns.
///
/// `journal_mode=WAL`, `synchronous=FULL` (every commit fsyncs the WAL, like our `.sync` durability). Appends
/// run in `BEGIN IMMEDIATE` with the expected version of each written stream checked by a prepared
/// `SELECT max(version)` — what an SQLite event store must do — and one prepared INSERT per event.
/// Positions are the rowid minus one (rowids start at 1, our positions at 0).
///
/// Unlike our store it keeps no event-id index, so it does no idempotency check; that favours the peer.
final class SQLiteEventTable {
    /// The connection.
    let database: SQLiteDatabase
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let rollback: SQLiteStatement
    private let insert: SQLiteStatement
    private let maxVersion: SQLiteStatement

    /// The column list every read selects, in `RecordedEvent` order.
    private static let columns = "position, stream, version, type, event_id, recorded_at, metadata, data"

    /// Opens the table in `path`, creating the database and table when `create` is set (after deleting any
    /// earlier database files there). A busy timeout lets several connections write the same database.
    ///
    /// - Throws: ``SQLiteError``.
    init(path: String, create: Bool, busyTimeoutMilliseconds: Int32 = 0) throws {
        if create {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
        database = try SQLiteDatabase(path: path)
        // Set before anything else: even reading the schema waits for a concurrent writer's lock.
        if busyTimeoutMilliseconds > 0 { try database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds) }
        // WAL is persistent in the file: switching needs an exclusive lock, so later connections only check it.
        let mode = try database.text(create ? "PRAGMA journal_mode=WAL" : "PRAGMA journal_mode")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(operation: "PRAGMA journal_mode=WAL", code: 0, message: "journal mode is \(mode ?? "unknown")")
        }
        try database.execute("PRAGMA synchronous=FULL")
        if create {
            try database.execute(
                """
                CREATE TABLE events(position INTEGER PRIMARY KEY, stream TEXT NOT NULL, version INTEGER NOT NULL,
                  type TEXT NOT NULL, event_id BLOB NOT NULL, recorded_at INTEGER NOT NULL, metadata BLOB NOT NULL,
                  data BLOB NOT NULL, UNIQUE(stream, version))
                """)
        }
        begin = try database.prepare("BEGIN IMMEDIATE")
        commit = try database.prepare("COMMIT")
        rollback = try database.prepare("ROLLBACK")
        insert = try database.prepare(
            "INSERT INTO events(stream, version, type, event_id, recorded_at, metadata, data) VALUES(?,?,?,?,?,?,?)")
        maxVersion = try database.prepare("SELECT max(version) FROM events WHERE stream = ?")
    }

    /// Appends one commit atomically, checking each written stream's expected version inside the transaction.
    ///
    /// - Throws: ``EventStoreError/wrongExpectedVersion(stream:expected:actual:)`` (rolled back), or
    ///   ``SQLiteError``.
    func append(_ workloadCommit: WorkloadCommit) throws {
        try begin.step()
        begin.reset()
        do {
            let recordedAt = Timestamp.now().microsecondsSinceEpoch
            // Versions come from the database, like a real store's; the workload's are only the expectation.
            var next: [StreamID: UInt64] = [:]
            for e in workloadCommit.events {
                let version: UInt64
                if let n = next[e.stream] {
                    version = n
                } else {
                    try maxVersion.bind(1, text: e.stream.rawValue)
                    try maxVersion.step()
                    let current: UInt64? = maxVersion.columnIsNull(0) ? nil : UInt64(maxVersion.columnInt64(0))
                    maxVersion.reset()
                    guard current == e.versionBefore else {
                        throw EventStoreError.wrongExpectedVersion(
                            stream: e.stream, expected: e.versionBefore.map { .exact($0) } ?? .noStream, actual: current)
                    }
                    version = current.map { $0 + 1 } ?? 0
                }
                next[e.stream] = version + 1
                try insert.bind(1, text: e.stream.rawValue)
                try insert.bind(2, int64: Int64(version))
                try insert.bind(3, text: e.event.type)
                try withUnsafeBytes(of: e.event.id.uuid) { try insert.bind(4, blob: $0) }
                try insert.bind(5, int64: recordedAt)
                try insert.bind(6, bytes: MetadataBlob.encode(e.event.metadata))
                try insert.bind(7, bytes: e.event.data)
                try insert.step()
                insert.reset()
            }
            try commit.step()
            commit.reset()
        } catch {
            // Best effort: the original error is what matters; ROLLBACK fails only if SQLite already rolled back.
            _ = try? rollback.step()
            rollback.reset()
            throw error
        }
    }

    /// Reads every event in position order, materializing each into a `RecordedEvent`.
    ///
    /// - Parameter body: Called with each event.
    /// - Returns: The number of events.
    /// - Throws: ``SQLiteError`` or a malformed-metadata error.
    @discardableResult
    func readAll(_ body: (RecordedEvent) -> Void) throws -> Int {
        let select = try database.prepare("SELECT \(Self.columns) FROM events ORDER BY position")
        var count = 0
        while try select.step() {
            body(try Self.event(select))
            count += 1
        }
        return count
    }

    /// The last event of a stream, or `nil`.
    func lastEvent(of stream: StreamID) throws -> RecordedEvent? {
        let select = try database.prepare("SELECT \(Self.columns) FROM events WHERE stream = ? ORDER BY version DESC LIMIT 1")
        try select.bind(1, text: stream.rawValue)
        guard try select.step() else { return nil }
        return try Self.event(select)
    }

    /// The number of events.
    func count() throws -> Int {
        let select = try database.prepare("SELECT count(*) FROM events")
        try select.step()
        return Int(select.columnInt64(0))
    }

    /// Moves the whole WAL into the database file and truncates the WAL, so the files' sizes are the table's.
    func checkpoint() throws {
        let statement = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        try statement.step()
        guard statement.columnInt64(0) == 0 else {
            throw SQLiteError(operation: "PRAGMA wal_checkpoint(TRUNCATE)", code: SQLITE_BUSY, message: "checkpoint blocked")
        }
    }

    private static func event(_ row: SQLiteStatement) throws -> RecordedEvent {
        let idBytes = row.columnBlob(4)
        guard idBytes.count == 16 else {
            throw EventStoreError.corrupted(location: "sqlite events.event_id", offset: 0, reason: "event id of \(idBytes.count) bytes")
        }
        return RecordedEvent(
            position: UInt64(row.columnInt64(0) - 1),
            stream: StreamID(unchecked: row.columnText(1)),
            version: UInt64(row.columnInt64(2)),
            type: row.columnText(3),
            id: UUID(uuid: idBytes.loadUnaligned(as: uuid_t.self)),
            recordedAt: Timestamp(microsecondsSinceEpoch: row.columnInt64(5)),
            metadata: try MetadataBlob.decode(row.columnBlob(6)),
            data: Array(row.columnBlob(7)))
    }
}
