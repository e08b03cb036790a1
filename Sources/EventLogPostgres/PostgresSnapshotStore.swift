public import EventLog
import Foundation

/// The stream states decisions start from, in the store's `snapshots` table, shared by every process and machine
/// that uses the store. A snapshot is a cache: the loader checks it against the stream before it trusts it.
public final class PostgresSnapshotStore: SnapshotStore {
    private let session: PostgresSession

    /// The snapshots of a store.
    ///
    /// - Parameter store: The store, whose schema holds the table.
    public init(store: PostgresEventStore) {
        session = store.session
    }

    public func snapshot(of stream: StreamID, kind: String) async throws -> StreamSnapshot? {
        try await run { c in
            let rows = try c.query(
                "SELECT stream_id, kind, schema_version, version, position, event_id, state, subject FROM snapshots WHERE stream_id = $1 AND kind = $2",
                [.text(stream.rawValue), .text(kind)])
            return rows.count == 0 ? nil : try Self.snapshot(rows, 0)
        }
    }

    public func save(_ snapshots: [StreamSnapshot]) async throws {
        // One row a stream and kind: the last given wins, as saving them one by one would leave it.
        var last: [String: Int] = [:]
        for (i, s) in snapshots.enumerated() { last[s.stream.rawValue + "\u{0}" + s.kind] = i }
        let kept = last.values.sorted().map { snapshots[$0] }
        guard !kept.isEmpty else { return }
        guard kept.allSatisfy({ $0.version <= UInt64(Int64.max) && $0.position <= UInt64(Int64.max) }) else {
            throw EventStoreError.invalidRequest("a snapshot's version or position is beyond what the store keeps")
        }
        try await run { c in
            _ = try c.query(
                """
                INSERT INTO snapshots (stream_id, kind, schema_version, version, position, event_id, state, subject)
                SELECT s, k, sv, v, p, e, st, NULLIF(sub, '')
                  FROM unnest($1::text[], $2::text[], $3::bigint[]::integer[], $4::bigint[], $5::bigint[], $6::uuid[], $7::bytea[], $8::text[])
                    AS x(s, k, sv, v, p, e, st, sub)
                ON CONFLICT (stream_id, kind) DO UPDATE SET schema_version = excluded.schema_version, version = excluded.version,
                  position = excluded.position, event_id = excluded.event_id, state = excluded.state, subject = excluded.subject
                """,
                [
                    .textArray(kept.map(\.stream.rawValue)), .textArray(kept.map(\.kind)), .int8Array(kept.map { Int64($0.schemaVersion) }),
                    .int8Array(kept.map { Int64($0.version) }), .int8Array(kept.map { Int64($0.position) }), .uuidArray(kept.map(\.eventID)),
                    .byteaArray(kept.map(\.state)), .textArray(kept.map { $0.subject ?? "" }),
                ])
        }
    }

    public func forEach(_ body: (StreamSnapshot) throws -> Bool) async throws {
        let rows = try await run { c in
            try c.query("SELECT stream_id, kind, schema_version, version, position, event_id, state, subject FROM snapshots ORDER BY stream_id, kind")
        }
        for i in 0..<rows.count {
            guard try body(try Self.snapshot(rows, i)) else { return }
        }
    }

    public func remove(stream: StreamID, kind: String) async throws {
        try await run { c in
            _ = try c.query("DELETE FROM snapshots WHERE stream_id = $1 AND kind = $2", [.text(stream.rawValue), .text(kind)])
        }
    }

    /// Deletes the tagged rows. Their dead versions stay until autovacuum reclaims them (a VACUUM here would scan the
    /// table's indexes whole, a cost that grows with the shop), and PostgreSQL does not overwrite freed space or its
    /// write-ahead log at once: see docs/design.md, "Personal data".
    public func removeAll(taggedWith subject: String) async throws {
        try await run { c in
            _ = try c.query("DELETE FROM snapshots WHERE subject = $1", [.text(subject)])
        }
    }

    public func removeAll() async throws {
        try await run { c in try c.execute("DELETE FROM snapshots") }
    }

    private static func snapshot(_ rows: PostgresResult, _ i: Int) throws -> StreamSnapshot {
        guard let schema = rows.int32(i, 2), let version = rows.int64(i, 3), let position = rows.int64(i, 4), let id = rows.uuid(i, 5) else {
            throw EventStoreError.corrupted(location: "table snapshots", offset: nil, reason: "a row lacks a field")
        }
        return StreamSnapshot(
            stream: StreamID(unchecked: rows.string(i, 0)), kind: rows.string(i, 1), schemaVersion: Int(schema), version: UInt64(version),
            position: UInt64(position), eventID: id, state: rows.array(i, 6), subject: rows.isNull(i, 7) ? nil : rows.string(i, 7))
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await session.perform(body)
    }
}
