import EventLog
import EventLogPostgres
import Foundation
import ProjectionRuntime
import Projections

/// One committed state as a reader opened it: its generation of rows up to its checkpoint's position.
struct PostgresStoredState: StoredProjectionState {
    let store: PostgresProjectionStateStore
    let name: String
    let version: Int
    let generation: Int64
    let checkpoint: CheckpointInfo

    /// The newest position a read may see: the checkpoint's, or an earlier one asked for. `nil`: no row at all.
    private func limit(_ asOf: UInt64?) -> Int64? {
        guard let top = checkpoint.position else { return nil }
        let p = min(asOf ?? top, top)
        return Int64(clamping: p)
    }

    private var scope: [PostgresValue] { [.text(name), .int8(Int64(version)), .int8(generation)] }

    func version(of key: RowKey, asOf position: UInt64?) throws -> RowVersion? {
        guard let top = limit(position) else { return nil }
        return try store.blocking { c in
            let r = try c.query(
                """
                SELECT position, value, keep FROM projection_rows
                 WHERE name = $1 AND version = $2 AND generation = $3 AND key = $4 AND position <= $5
                 ORDER BY position DESC LIMIT 1
                """, scope + [.bytea(key.bytes), .int8(top)])
            guard r.count == 1, let p = r.int64(0, 0) else { return nil }
            return RowVersion(key: key, position: UInt64(p), value: r.isNull(0, 1) ? nil : r.array(0, 1), keep: r.bool(0, 2) == true)
        }
    }

    func versions(of keys: [RowKey], asOf position: UInt64?) throws -> [RowKey: RowVersion] {
        guard let top = limit(position), !keys.isEmpty else { return [:] }
        return try store.blocking { c in
            let r = try c.query(
                """
                SELECT k.key, v.position, v.value, v.keep FROM unnest($5::bytea[]) AS k(key) CROSS JOIN LATERAL (
                  SELECT r.position, r.value, r.keep FROM projection_rows r
                   WHERE r.name = $1 AND r.version = $2 AND r.generation = $3 AND r.key = k.key AND r.position <= $4
                   ORDER BY r.position DESC LIMIT 1) v
                """, scope + [.int8(top), .byteaArray(keys.map(\.bytes))])
            var out: [RowKey: RowVersion] = [:]
            for i in 0..<r.count {
                guard let p = r.int64(i, 1) else { continue }
                let key = RowKey(bytes: r.array(i, 0))
                out[key] = RowVersion(key: key, position: UInt64(p), value: r.isNull(i, 2) ? nil : r.array(i, 2), keep: r.bool(i, 3) == true)
            }
            return out
        }
    }

    func rows(group prefix: [UInt8], asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
        try present(prefix: prefix, asOf: position)
    }

    func rows(table: UInt8, asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
        try present(prefix: [table], asOf: position)
    }

    /// The rows present (newest version at or before the position, with a value) whose keys start with a prefix, in
    /// stored order. As of the checkpoint, they are the range of `projection_present`. Earlier, the keys are a range (`bytea` compares byte by byte) of the primary key's index, read one of two
    /// ways by its shape, which a look at its first entries tells (an index-only count):
    /// - rows with few versions each (an activity history: one per entry): every version in the range, keeping
    ///   each key's newest (`DISTINCT ON`);
    /// - rows with many versions (a busy cart's few rows have thousands, one per catch-up that changed them): key by
    ///   key from the range's end, each step one probe for the next key (a loose index scan) and one for its version
    ///   as of the position, so the cost follows the rows, not their versions before or after the position.
    private func present(prefix: [UInt8], asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
        guard let top = limit(position) else { return [] }
        // The first key after every key with the prefix: its last byte below 0xFF raised by one.
        var end = prefix
        while let last = end.last, last == 0xFF { end.removeLast() }
        if !end.isEmpty { end[end.count - 1] += 1 }
        if UInt64(top) == checkpoint.position {
            // The state as of its checkpoint: the present rows, not every version the range's keys ever had.
            let parameters = scope + [.bytea(prefix)] + (end.isEmpty ? [] : [.bytea(end)])
            return try store.blocking { c in
                let r = try c.query(
                    """
                    SELECT key, value FROM projection_present
                     WHERE name = $1 AND version = $2 AND generation = $3 AND key >= $4 \(end.isEmpty ? "" : "AND key < $5")
                    """, parameters)
                return (0..<r.count).map { (key: RowKey(bytes: r.array($0, 0)), value: r.array($0, 1)) }
            }.sorted { $0.key < $1.key }
        }
        let range = "r.name = $1 AND r.version = $2 AND r.generation = $3 AND r.position <= $4 AND r.key >= $5 \(end.isEmpty ? "" : "AND r.key < $6")"
        let keys = "r.name = $1 AND r.version = $2 AND r.generation = $3 AND r.key >= $4 \(end.isEmpty ? "" : "AND r.key < $5")"
        let bounds: [PostgresValue] = [.bytea(prefix)] + (end.isEmpty ? [] : [.bytea(end)])
        let found = try store.blocking { c in
            // The shape of the range's first index entries, whatever their positions: a look that stays as short
            // as the sample however many versions lie past the position asked.
            let shape = try c.query(
                "SELECT count(*), count(DISTINCT key) FROM (SELECT r.key FROM projection_rows r WHERE \(keys) LIMIT \(Self.shapeSample)) sample",
                scope + bounds)
            let versions = shape.int64(0, 0) ?? 0
            let distinct = max(shape.int64(0, 1) ?? 0, 1)
            if versions < Self.shapeSample || versions <= distinct * Self.versionsPerKeyForProbes {
                let r = try c.query(
                    """
                    SELECT key, value FROM (
                      SELECT DISTINCT ON (r.key) r.key, r.value FROM projection_rows r WHERE \(range) ORDER BY r.key DESC, r.position DESC) newest
                     WHERE value IS NOT NULL
                    """, scope + [.int8(top)] + bounds)
                return (0..<r.count).map { (key: RowKey(bytes: r.array($0, 0)), value: r.array($0, 1)) }
            }
            // Key by key from the range's end, each key found by one probe below the last (a loose index scan), and
            // its version as of the position by one more: versions past the position are never walked.
            let r = try c.query(
                """
                WITH RECURSIVE walked(key) AS (
                  (SELECT r.key FROM projection_rows r WHERE \(keys) ORDER BY r.key DESC LIMIT 1)
                  UNION ALL
                  SELECT (SELECT r.key FROM projection_rows r WHERE \(keys.replacingOccurrences(of: "AND r.key < $5", with: "")) AND r.key < walked.key
                           ORDER BY r.key DESC LIMIT 1)
                    FROM walked WHERE walked.key IS NOT NULL)
                SELECT w.key, v.value FROM walked w CROSS JOIN LATERAL (
                  SELECT r.value FROM projection_rows r
                   WHERE r.name = $1 AND r.version = $2 AND r.generation = $3 AND r.key = w.key AND r.position <= \(top)
                   ORDER BY r.position DESC LIMIT 1) v
                 WHERE w.key IS NOT NULL AND v.value IS NOT NULL
                """, scope + bounds)
            return (0..<r.count).map { (key: RowKey(bytes: r.array($0, 0)), value: r.array($0, 1)) }
        }
        return found.sorted { $0.key < $1.key }
    }

    /// How many index entries tell a range's shape; a range smaller than this is read whole.
    static let shapeSample: Int64 = 2000
    /// From how many versions a row (in the sample) the range is read key by key.
    static let versionsPerKeyForProbes: Int64 = 4

    func newestKept(_ key: RowKey) throws -> UInt64? {
        guard let top = limit(nil) else { return nil }
        return try store.blocking { c in
            try c.query(
                "SELECT max(position) FROM projection_rows WHERE name = $1 AND version = $2 AND generation = $3 AND key = $4 AND keep AND position <= $5",
                scope + [.bytea(key.bytes), .int8(top)]
            ).int64(0, 0).map(UInt64.init)
        }
    }

    var size: (versions: Int, bytes: Int) {
        guard let top = limit(nil),
            let r = try? store.blocking({ c in
                try c.query(
                    "SELECT count(*), coalesce(sum(length(key) + coalesce(length(value), 0)), 0)::bigint FROM projection_rows WHERE name = $1 AND version = $2 AND generation = $3 AND position <= $4",
                    scope + [.int8(top)])
            })
        else { return (0, 0) }
        return (Int(r.int64(0, 0) ?? 0), Int(r.int64(0, 1) ?? 0))
    }
}
