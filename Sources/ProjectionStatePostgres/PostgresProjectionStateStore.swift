import EventLog
import EventLogPostgres
import Foundation
public import ProjectionRuntime
import Projections
import Synchronization

/// The read models' states in the PostgreSQL store's database (tables `projection_states` and `projection_rows`),
/// so that every machine using the store shares them, and each catch-up commits its rows and its position in one
/// transaction: a reader sees the old state or the new, never rows without their position.
///
/// A state is a generation of rows (a rebuild starts a new one, and the old one is deleted when it commits) and a
/// checkpoint. Rows carry the position of the event that made them, and a catch-up only adds rows past the
/// checkpoint it started from: a reader keeps the state it opened by reading rows at or before that checkpoint.
/// Every version is kept (a store may drop versions not marked `keep`; this one does not), so a row is read as
/// of any position. The lock of a projection is a session advisory lock on the store's connection (a connection of
/// its own would cost every view a second connection).
public final class PostgresProjectionStateStore: ProjectionStateStore {
    let session: PostgresSession
    private let schema: String
    /// Writers' sessions no writer holds: a process that saves several read models (a deletion ends an account's
    /// pets and orders, each a catch-up) connects once for them, not once each (a connection costs about 4 ms).
    private let idleWriterSessions = Mutex<[PostgresSession]>([])

    /// The states of a store's read models.
    ///
    /// - Parameter store: The store, whose schema holds the tables.
    public init(store: PostgresEventStore) {
        session = store.session
        schema = store.schema
    }

    /// A session for a writer's transaction: an idle one, else a new one.
    func takeWriterSession() -> PostgresSession {
        idleWriterSessions.withLock { $0.popLast() } ?? session.sibling(label: "state-writer")
    }

    /// Gives back a writer's session, its transaction ended.
    func giveBack(_ writerSession: PostgresSession) {
        idleWriterSessions.withLock { $0.append(writerSession) }
    }

    func blocking<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try session.performBlocking(body)
    }

    public func personalIndex() throws -> (any PersonalIndex)? { PostgresPersonalIndex(store: self) }

    public func open(_ name: String, version: Int) throws -> (any StoredProjectionState)? {
        try blocking { c in
            let r = try c.query(
                "SELECT generation, schema_version, position, events_applied, rebuilt_at, rebuild_microseconds, saved_at, event_id, event_recorded_at FROM projection_states WHERE name = $1 AND version = $2",
                [.text(name), .int8(Int64(version))])
            guard r.count == 1, let generation = r.int64(0, 0), let schemaVersion = r.int32(0, 1), let applied = r.int64(0, 3),
                let rebuiltAt = r.int64(0, 4), let took = r.int64(0, 5), let savedAt = r.int64(0, 6)
            else { return nil }
            let checkpoint = CheckpointInfo(
                name: name, schemaVersion: Int(schemaVersion), position: r.int64(0, 2).map(UInt64.init), eventsApplied: applied,
                rebuiltAt: Timestamp(microsecondsSinceEpoch: rebuiltAt), rebuildMicroseconds: took, savedAt: Timestamp(microsecondsSinceEpoch: savedAt),
                eventID: r.uuid(0, 7), eventRecordedAt: r.int64(0, 8).map(Timestamp.init(microsecondsSinceEpoch:)))
            return PostgresStoredState(store: self, name: name, version: version, generation: generation, checkpoint: checkpoint)
        }
    }

    public func tryLock(_ name: String) throws -> (any ProjectionLock)? {
        let key = "pawtrail.projection.\(schema).\(name)"
        // A session's advisory locks are re-entrant: this process's own holders are kept apart here.
        let held = session.heldAdvisoryLocks
        guard held.keys.withLock({ $0.insert(key).inserted }) else { return nil }
        // A standby takes advisory locks but no writes: its read models are folded in memory, from the primary's
        // states as they were replicated.
        let taken = try session.performBlocking { c in
            try c.query("SELECT NOT pg_is_in_recovery() AND pg_try_advisory_lock(hashtextextended($1, 0))", [.text(key)]).bool(0, 0) == true
        }
        guard taken else {
            held.keys.withLock { _ = $0.remove(key) }
            return nil
        }
        return PostgresProjectionLock(session: session, key: key) { [held] in held.keys.withLock { _ = $0.remove(key) } }
    }

    public func writer(_ name: String, version: Int, replacing: Bool) throws -> any StateWriter {
        PostgresStateWriter(store: self, name: name, version: version, replacing: replacing)
    }

    public func versions(of name: String) throws -> [Int] {
        try blocking { c in
            let r = try c.query("SELECT version FROM projection_states WHERE name = $1 ORDER BY version", [.text(name)])
            return (0..<r.count).compactMap { r.int32($0, 0).map(Int.init) }
        }
    }

    public func remove(_ name: String, version: Int) throws {
        try blocking { c in
            try c.execute("BEGIN")
            do {
                _ = try c.query("DELETE FROM projection_rows WHERE name = $1 AND version = $2", [.text(name), .int8(Int64(version))])
                _ = try c.query("DELETE FROM projection_present WHERE name = $1 AND version = $2", [.text(name), .int8(Int64(version))])
                _ = try c.query("DELETE FROM projection_states WHERE name = $1 AND version = $2", [.text(name), .int8(Int64(version))])
                try c.execute("COMMIT")
            } catch {
                if c.isUsable { try? c.execute("ROLLBACK") }
                throw error
            }
        }
    }
}

/// A projection's lock: a session advisory lock, released with its connection.
final class PostgresProjectionLock: ProjectionLock, @unchecked Sendable {
    private let session: PostgresSession
    private let key: String
    private let released: @Sendable () -> Void

    init(session: PostgresSession, key: String, released: @escaping @Sendable () -> Void) {
        self.session = session
        self.key = key
        self.released = released
    }

    func unlock() {
        _ = try? session.runBlocking { c in try c.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [.text(key)]) }
        released()
    }
}

