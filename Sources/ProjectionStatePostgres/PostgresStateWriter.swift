import EventLog
import EventLogPostgres
import Foundation
import ProjectionRuntime
import Projections

/// Writes a catch-up or a rebuild: its rows are kept until `finish`, which commits them and the checkpoint in one
/// transaction. A rebuild writes a new generation and deletes the old one in that transaction; a catch-up adds to
/// the current generation, after clearing what a catch-up that never finished left past the checkpoint.
final class PostgresStateWriter: StateWriter, @unchecked Sendable {
    private let store: PostgresProjectionStateStore
    private let name: String
    private let version: Int
    private let replacing: Bool
    private var keys: [[UInt8]] = []
    private var positions: [Int64] = []
    private var values: [[UInt8]] = []
    private var absent: [Int64] = []
    private var keeps: [Int64] = []

    init(store: PostgresProjectionStateStore, name: String, version: Int, replacing: Bool) {
        self.store = store
        self.name = name
        self.version = version
        self.replacing = replacing
    }

    func add(_ versions: RowVersions) throws {
        for v in versions.versions {
            keys.append(v.key.bytes)
            positions.append(Int64(clamping: v.position))
            values.append(v.value ?? [])
            absent.append(v.value == nil ? 1 : 0)
            keeps.append(v.keep ? 1 : 0)
        }
    }

    func finish(_ checkpoint: CheckpointInfo) throws {
        dropOverwritten()
        let (name, version, replacing) = (self.name, self.version, self.replacing)
        let rows: [PostgresValue] = [.byteaArray(keys), .int8Array(positions), .byteaArray(values), .int8Array(absent), .int8Array(keeps)]
        try store.blocking { c in
            try c.execute("BEGIN")
            do {
                let current = try c.query(
                    "SELECT generation, position FROM projection_states WHERE name = $1 AND version = $2 FOR UPDATE", [.text(name), .int8(Int64(version))])
                let old = current.count == 1 ? current.int64(0, 0) : nil
                let generation = replacing ? (old ?? 0) + 1 : (old ?? 1)
                if replacing {
                    _ = try c.query(
                        "DELETE FROM projection_rows WHERE name = $1 AND version = $2 AND generation <> $3",
                        [.text(name), .int8(Int64(version)), .int8(generation)])
                } else if let from = current.count == 1 ? current.int64(0, 1) : nil {
                    _ = try c.query(
                        "DELETE FROM projection_rows WHERE name = $1 AND version = $2 AND generation = $3 AND position > $4",
                        [.text(name), .int8(Int64(version)), .int8(generation), .int8(from)])
                }
                _ = try c.query(
                    """
                    INSERT INTO projection_rows (name, version, generation, key, position, value, keep)
                    SELECT $1, $2, $3, r.key, r.position, CASE WHEN r.absent = 1 THEN NULL ELSE r.value END, r.keep = 1
                      FROM unnest($4::bytea[], $5::bigint[], $6::bytea[], $7::bigint[], $8::bigint[]) AS r(key, position, value, absent, keep)
                    ON CONFLICT (name, version, generation, key, position) DO UPDATE SET value = excluded.value, keep = excluded.keep
                    """, [.text(name), .int8(Int64(version)), .int8(generation)] + rows)
                _ = try c.query(
                    """
                    INSERT INTO projection_states (name, version, generation, schema_version, position, events_applied, rebuilt_at, rebuild_microseconds, saved_at, event_id)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ($10::uuid[])[1])
                    ON CONFLICT (name, version) DO UPDATE SET generation = excluded.generation, schema_version = excluded.schema_version,
                      position = excluded.position, events_applied = excluded.events_applied, rebuilt_at = excluded.rebuilt_at,
                      rebuild_microseconds = excluded.rebuild_microseconds, saved_at = excluded.saved_at, event_id = excluded.event_id
                    """,
                    [
                        .text(name), .int8(Int64(version)), .int8(generation), .int8(Int64(checkpoint.schemaVersion)),
                        checkpoint.position.map { .int8(Int64(clamping: $0)) } ?? .null, .int8(checkpoint.eventsApplied),
                        .int8(checkpoint.rebuiltAt.microsecondsSinceEpoch), .int8(checkpoint.rebuildMicroseconds), .int8(checkpoint.savedAt.microsecondsSinceEpoch),
                        .uuidArray(checkpoint.eventID.map { [$0] } ?? []),
                    ])
                try c.execute("COMMIT")
            } catch {
                if c.isUsable { try? c.execute("ROLLBACK") }
                throw error
            }
        }
        keys = []
        positions = []
        values = []
        absent = []
        keeps = []
    }

    /// Keeps the first of several versions of a row at one position, as every state store does (a catch-up hands
    /// over a kept snapshot of a row, then its closing version at the same position): one INSERT may not touch a row
    /// twice.
    private func dropOverwritten() {
        var first: [RowAt: Int] = [:]
        for i in keys.indices where first[RowAt(key: keys[i], position: positions[i])] == nil { first[RowAt(key: keys[i], position: positions[i])] = i }
        guard first.count < keys.count else { return }
        let kept = keys.indices.filter { first[RowAt(key: keys[$0], position: positions[$0])] == $0 }
        keys = kept.map { keys[$0] }
        positions = kept.map { positions[$0] }
        values = kept.map { values[$0] }
        absent = kept.map { absent[$0] }
        keeps = kept.map { keeps[$0] }
    }

    private struct RowAt: Hashable {
        var key: [UInt8]
        var position: Int64
    }
}
