public import EventLog
import Foundation

/// Events taken as another store recorded them, under the append lock: they must follow on from this store.
extension PostgresEventStore: EventImporting {
    public func importEvents(_ events: [RecordedEvent]) async throws {
        guard let first = events.first else { return }
        guard events.allSatisfy({ $0.position <= UInt64(Int64.max) && $0.version <= UInt64(Int64.max) }),
            zip(events, events.dropFirst()).allSatisfy({ $0.position + 1 == $1.position && $0.recordedAt <= $1.recordedAt })
        else { throw EventStoreError.invalidRequest("imported events must have consecutive positions and times that never decrease") }
        let channel = PostgresConnection.channel(schema)
        try await run { c in
            try c.execute("BEGIN")
            do {
                let head = try c.query("SELECT next_position, last_recorded_at FROM head FOR UPDATE")
                let next = head.int64(0, 0) ?? 0
                let last = head.int64(0, 1) ?? 0
                guard Int64(first.position) == next else {
                    throw EventStoreError.invalidRequest("the store's next position is \(next), the events start at \(first.position)")
                }
                guard first.recordedAt.microsecondsSinceEpoch >= last || next == 0 else {
                    throw EventStoreError.invalidRequest("the events are recorded before the store's last commit")
                }
                // Each stream's versions follow on from what the store holds (the unique index refuses a repeat).
                var expected: [StreamID: UInt64] = [:]
                let names = Array(Set(events.map(\.stream.rawValue)))
                let versions = try c.query("SELECT stream_id, max(version) FROM events WHERE stream_id = ANY($1) GROUP BY stream_id", [.textArray(names)])
                for i in 0..<versions.count { expected[StreamID(unchecked: versions.string(i, 0))] = UInt64(versions.int64(i, 1) ?? -1) + 1 }
                for e in events {
                    let want = expected[e.stream] ?? 0
                    guard e.version == want else {
                        throw EventStoreError.invalidRequest("stream '\(e.stream)' is at version \(want) here, the imported event is version \(e.version)")
                    }
                    expected[e.stream] = want + 1
                }
                _ = try c.query(
                    """
                    WITH written AS (
                      INSERT INTO events (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data)
                      SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::bigint[], $7::bytea[], $8::bigint[]::integer[], $9::bytea[])
                      RETURNING 1)
                    UPDATE head SET next_position = $10, last_recorded_at = $11
                    """,
                    [
                        .int8Array(events.map { Int64($0.position) }), .textArray(events.map(\.stream.rawValue)), .int8Array(events.map { Int64($0.version) }),
                        .uuidArray(events.map(\.id)), .textArray(events.map(\.type)), .int8Array(events.map(\.recordedAt.microsecondsSinceEpoch)),
                        .byteaArray(events.map(\.metadata.encoded)), .int8Array(events.map { Int64($0.metadata.count) }), .byteaArray(events.map(\.data)),
                        .int8(Int64(events.last!.position) + 1), .int8(max(last, events.last!.recordedAt.microsecondsSinceEpoch)),
                    ])
                _ = try c.query("SELECT pg_notify($1, '')", [.text(channel)])
                try c.execute("COMMIT")
            } catch {
                if c.isUsable { try? c.execute("ROLLBACK") }
                throw error
            }
        }
    }
}
