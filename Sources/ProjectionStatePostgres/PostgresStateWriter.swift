import EventLog
import EventLogPostgres
import Foundation
import ProjectionRuntime
import Projections

/// Writes a catch-up or a rebuild in one transaction on a connection of its own, so that a rebuild's rows go to the
/// server in batches as they come instead of all at `finish` (a 2M-event rebuild held 2.2 GB of rows): the
/// transaction starts at the first batch, and `finish` commits the rows with the checkpoint. A rebuild writes a new
/// generation and deletes the old one at the end; a catch-up adds to the current generation. No committed generation
/// holds rows past its checkpoint (`finish` removes any before the commit), so a catch-up finds none in its way and
/// needs no delete at its start, which had to visit every row of the read model. Readers see the old state until the commit. Of two
/// versions of a row at one position the first stands, as in every state store (`ON CONFLICT DO NOTHING`). Before
/// the commit, the present rows (`projection_present`) of the keys written are set to their newest versions: all of
/// a new generation's after a rebuild, the keys a catch-up wrote after it.
final class PostgresStateWriter: StateWriter, @unchecked Sendable {
    private let session: PostgresSession
    private let store: PostgresProjectionStateStore
    private let name: String
    private let version: Int
    private let replacing: Bool
    private var keys: [[UInt8]] = []
    private var positions: [Int64] = []
    private var values: [[UInt8]] = []
    private var absent: [Int64] = []
    private var keeps: [Int64] = []
    private var bufferedBytes = 0
    /// The keys a catch-up wrote, whose present rows `finish` sets.
    private var touched = Set<[UInt8]>()
    /// The generation written, once the transaction has begun.
    private var generation: Int64?
    /// Whether a transaction could not be ended, so that the session is not given to another writer.
    private var broken = false
    /// The highest position of a row written in this transaction.
    private var highest = Int64.min
    /// Rows written in this transaction.
    private var written = 0

    /// A rebuild of at least this many rows has the server's statistics of the state tables taken anew at its end.
    static let analyzedRebuild = 50_000

    /// Rows sent to the server together.
    static let batchRows = 20_000
    static let batchBytes = 16 << 20

    init(store: PostgresProjectionStateStore, name: String, version: Int, replacing: Bool) {
        self.store = store
        session = store.takeWriterSession()
        self.name = name
        self.version = version
        self.replacing = replacing
    }

    deinit {
        // Not finished: the transaction, if begun, is rolled back.
        if generation != nil, (try? session.runBlocking { c in try c.execute("ROLLBACK") }) == nil { return }
        // Only a session whose transaction ended goes back for another writer.
        if !broken { store.giveBack(session) }
    }

    func add(_ versions: RowVersions) throws {
        for v in versions.versions {
            if !replacing { touched.insert(v.key.bytes) }
            keys.append(v.key.bytes)
            positions.append(Int64(clamping: v.position))
            highest = max(highest, Int64(clamping: v.position))
            written += 1
            values.append(v.value ?? [])
            absent.append(v.value == nil ? 1 : 0)
            keeps.append(v.keep ? 1 : 0)
            bufferedBytes += v.key.bytes.count + (v.value?.count ?? 0) + 24
        }
        if keys.count >= Self.batchRows || bufferedBytes >= Self.batchBytes { try send() }
    }

    /// Begins the transaction if it has not, and sends the rows buffered.
    private func send() throws {
        let (name, version, replacing) = (self.name, self.version, self.replacing)
        let started = generation
        let rows: [PostgresValue] = [.byteaArray(keys), .int8Array(positions), .byteaArray(values), .int8Array(absent), .int8Array(keeps)]
        generation = try session.performBlocking { c in
            var generation = started
            if generation == nil {
                try c.execute("BEGIN")
                let current = try c.query(
                    "SELECT generation, position FROM projection_states WHERE name = $1 AND version = $2 FOR UPDATE", [.text(name), .int8(Int64(version))])
                let old = current.count == 1 ? current.int64(0, 0) : nil
                let g = replacing ? (old ?? 0) + 1 : (old ?? 1)
                if replacing {
                    // Rows of a generation that never committed (a rebuild killed before its end).
                    _ = try c.query("DELETE FROM projection_rows WHERE name = $1 AND version = $2 AND generation = $3", [.text(name), .int8(Int64(version)), .int8(g)])
                }
                generation = g
            }
            if !rows.isEmpty {
                _ = try c.query(
                    """
                    INSERT INTO projection_rows (name, version, generation, key, position, value, keep)
                    SELECT $1, $2, $3, r.key, r.position, CASE WHEN r.absent = 1 THEN NULL ELSE r.value END, r.keep = 1
                      FROM unnest($4::bytea[], $5::bigint[], $6::bytea[], $7::bigint[], $8::bigint[]) AS r(key, position, value, absent, keep)
                    ON CONFLICT (name, version, generation, key, position) DO NOTHING
                    """, [.text(name), .int8(Int64(version)), .int8(generation!)] + rows)
            }
            return generation
        }
        keys = []
        positions = []
        values = []
        absent = []
        keeps = []
        bufferedBytes = 0
    }

    func finish(_ checkpoint: CheckpointInfo) throws {
        try send()
        let (name, version, replacing, generation) = (self.name, self.version, self.replacing, self.generation!)
        let touched = self.touched
        let limit = checkpoint.position.map { Int64(clamping: $0) } ?? -1
        let pastCheckpoint = highest > limit
        do {
            try session.performBlocking { c in
                let scope: [PostgresValue] = [.text(name), .int8(Int64(version)), .int8(generation)]
                if pastCheckpoint {
                    _ = try c.query("DELETE FROM projection_rows WHERE name = $1 AND version = $2 AND generation = $3 AND position > $4", scope + [.int8(limit)])
                }
                if replacing {
                    _ = try c.query("DELETE FROM projection_rows WHERE name = $1 AND version = $2 AND generation <> $3", scope)
                    _ = try c.query("DELETE FROM projection_present WHERE name = $1 AND version = $2", Array(scope.prefix(2)))
                    _ = try c.query(
                        """
                        INSERT INTO projection_present (name, version, generation, key, value)
                        SELECT $1, $2, $3, key, value FROM (
                          SELECT DISTINCT ON (r.key) r.key, r.value FROM projection_rows r
                           WHERE r.name = $1 AND r.version = $2 AND r.generation = $3 ORDER BY r.key DESC, r.position DESC) newest
                         WHERE value IS NOT NULL
                        """, scope)
                } else if !touched.isEmpty {
                    let written: [PostgresValue] = [.byteaArray(Array(touched))]
                    _ = try c.query(
                        "DELETE FROM projection_present WHERE name = $1 AND version = $2 AND generation = $3 AND key = ANY($4)", scope + written)
                    _ = try c.query(
                        """
                        INSERT INTO projection_present (name, version, generation, key, value)
                        SELECT $1, $2, $3, k.key, v.value FROM unnest($4::bytea[]) AS k(key) CROSS JOIN LATERAL (
                          SELECT r.value FROM projection_rows r
                           WHERE r.name = $1 AND r.version = $2 AND r.generation = $3 AND r.key = k.key ORDER BY r.position DESC LIMIT 1) v
                         WHERE v.value IS NOT NULL
                        """, scope + written)
                }
                _ = try c.query(
                    """
                    INSERT INTO projection_states (name, version, generation, schema_version, position, events_applied, rebuilt_at, rebuild_microseconds, saved_at, event_id, event_recorded_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ($10::uuid[])[1], $11)
                    ON CONFLICT (name, version) DO UPDATE SET generation = excluded.generation, schema_version = excluded.schema_version,
                      position = excluded.position, events_applied = excluded.events_applied, rebuilt_at = excluded.rebuilt_at,
                      rebuild_microseconds = excluded.rebuild_microseconds, saved_at = excluded.saved_at, event_id = excluded.event_id,
                      event_recorded_at = excluded.event_recorded_at
                    """,
                    [
                        .text(name), .int8(Int64(version)), .int8(generation), .int8(Int64(checkpoint.schemaVersion)),
                        checkpoint.position.map { .int8(Int64(clamping: $0)) } ?? .null, .int8(checkpoint.eventsApplied),
                        .int8(checkpoint.rebuiltAt.microsecondsSinceEpoch), .int8(checkpoint.rebuildMicroseconds), .int8(checkpoint.savedAt.microsecondsSinceEpoch),
                        .uuidArray(checkpoint.eventID.map { [$0] } ?? []),
                        checkpoint.eventRecordedAt.map { .int8($0.microsecondsSinceEpoch) } ?? .null,
                    ])
                try c.execute("COMMIT")
            }
        } catch {
            if self.generation != nil, (try? session.runBlocking { c in try c.execute("ROLLBACK") }) == nil { broken = true }
            self.generation = nil
            highest = .min
            written = 0
            throw error
        }
        self.generation = nil
        self.touched = []
        highest = .min
        if replacing && written >= Self.analyzedRebuild {
            // Until autovacuum samples the new generation (up to a minute later), the planner guesses the state's
            // rows from stale statistics, and a catch-up's `key = ANY(...)` filtered every row of the read model
            // instead of seeking its keys (18.7 ms against 0.1 ms for the pets of 87,000 on the 2M year). The
            // rebuild is committed: a failure here only leaves the sampling to autovacuum.
            try? session.performBlocking { c in try c.execute("ANALYZE projection_present, projection_rows") }
        }
        written = 0
    }
}
