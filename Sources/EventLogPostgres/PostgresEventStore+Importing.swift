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
                let versions = try c.query(PostgresAppendGroup.versionsQuery, [.textArray(names)])
                for i in 0..<versions.count { expected[StreamID(unchecked: versions.string(i, 0))] = versions.int64(i, 1).map { UInt64($0) + 1 } ?? 0 }
                for e in events {
                    let want = expected[e.stream] ?? 0
                    guard e.version == want else {
                        throw EventStoreError.invalidRequest("stream '\(e.stream)' is at version \(want) here, the imported event is version \(e.version)")
                    }
                    expected[e.stream] = want + 1
                }
                // COPY in binary: the bulk path, row by row without building arrays on the server.
                var rows = PostgresCopyRows(capacity: events.reduce(0) { $0 + $1.data.count + $1.metadata.encoded.count + 120 })
                let runs = PostgresEventRuns(
                    count: events.count, stream: { events[$0].stream }, recordedAt: { events[$0].recordedAt.microsecondsSinceEpoch })
                for (i, e) in events.enumerated() {
                    rows.event(
                        position: Int64(e.position), stream: e.stream, version: e.version, id: e.id, type: e.type,
                        recordedAt: e.recordedAt.microsecondsSinceEpoch, metadata: e.metadata, data: e.data, run: runs.starts[i])
                }
                try c.copyIn(PostgresCopyRows.copyEvents, rows: rows)
                _ = try c.query(
                    "UPDATE head SET next_position = $1, last_recorded_at = $2",
                    [.int8(Int64(events.last!.position) + 1), .int8(max(last, events.last!.recordedAt.microsecondsSinceEpoch))])
                _ = try c.query("SELECT pg_notify($1, '')", [.text(channel)])
                try c.execute("COMMIT")
            } catch {
                if c.isUsable { try? c.execute("ROLLBACK") }
                // unique_violation: an id (or a stream version) the store holds already.
                if case .statement("23505", let message)? = error as? PostgresFailure {
                    throw EventStoreError.invalidRequest("the store holds an imported event already: \(message)")
                }
                throw error
            }
        }
    }
}
