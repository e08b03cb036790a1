import EventLog
@testable import EventLogPostgres
@testable import EventLogTestKit
import Foundation
import PostgresTestSupport
import Testing

/// The runs that index the events table by category and by time: where they split, that a store of layout 3 moved to
/// them reads as it did, and that `log verify` finds runs that do not describe the log.
@Suite struct PostgresRunTests {
    @Test func `a run ends at a change of category or time, and each write starts its own`() {
        let streams: [StreamID] = ["order-1", "order-2", "cart-1", "order-3", "pet-1", "pet-2", "pet", "pet-3", "caf\u{E9}-1", "cafe\u{301}-1"]
        let times: [Int64] = [1, 1, 1, 1, 1, 1, 1, 2, 2, 2]
        let runs = PostgresEventRuns(count: streams.count, stream: { streams[$0] }, recordedAt: { times[$0] })
        let starts = runs.starts.map { $0.map { "\($0.category):\($0.length)" } ?? "-" }
        #expect(starts == ["order:2", "-", "cart:1", "order:1", "pet:3", "-", "-", "pet:1", "caf\u{E9}:1", "cafe\u{301}:1"])
        #expect(runs.lengths == [2, 0, 1, 1, 3, 0, 0, 1, 1, 1])
        #expect(PostgresEventRuns(count: 0, stream: { streams[$0] }, recordedAt: { times[$0] }).starts.isEmpty)
    }

    @Test func `store upgrade from layout 3 finds the runs, and reads by category and time answer as before`() async throws {
        let h = try PostgresHarness()
        try await Self.writeMixedHistory(h.store)
        let before = try await Self.answers(h.store)
        let admin = PostgresSession(url: h.url, schema: h.schema, label: "admin")
        try admin.runBlocking { c in
            try Self.eventsAtLayout3(c)
            try c.execute("UPDATE schema_version SET version = 3")
        }
        #expect(try PostgresEventStore.upgrade(url: h.url, schema: h.schema) == (3, PostgresEventStore.schemaVersion))
        try h.reopen()
        let store = try #require(h.store as? PostgresEventStore)
        let after = try await Self.answers(store)
        #expect(after == before)
        let check = try await store.verify()
        #expect(check.isOK, "\(check.problems)")
    }

    @Test func `log verify finds a run that does not tile the log, and an event outside its run's category`() async throws {
        let h = try PostgresHarness()
        try await Self.writeMixedHistory(h.store)
        let store = try #require(h.store as? PostgresEventStore)
        #expect(try await store.verify().isOK)
        let admin = PostgresSession(url: h.url, schema: h.schema, label: "admin")
        try admin.runBlocking { c in try c.execute("UPDATE events SET run_length = run_length + 1 WHERE position = 0") }
        let long = try await store.verify()
        #expect(long.problems.contains { $0.contains("the run at position 0 claims") }, "\(long.problems)")
        try admin.runBlocking { c in
            try c.execute("UPDATE events SET run_length = run_length - 1 WHERE position = 0; UPDATE events SET run_category = 'orders' WHERE position = 0")
        }
        let misplaced = try await store.verify()
        #expect(misplaced.problems.contains { $0.contains("position 0 is outside its run's category") }, "\(misplaced.problems)")
    }

    /// Appends whose categories interleave within one write, a write large enough to go through COPY, and single
    /// appends.
    static func writeMixedHistory(_ store: any EventStore) async throws {
        let mixed: [StreamID] = ["order-1", "order-2", "cart-1", "order-3", "pet-1", "pet-2", "order", "orders-1"]
        for round in 0..<4 {
            _ = try await store.append(
                AppendRequest(entries: mixed.map { .init(stream: $0, event: event(round % 2 == 0 ? "A" : "B")) }))
            try await store.append(to: "inventory-a", events(round == 1 ? 300 : 3, type: "A"))
            try await store.append(to: StreamID(unchecked: "order-\(10 + round)"), events(1, type: "B"))
        }
    }

    /// Reads by category, forward and backward, from cursors and with a type filter, and the last position at or
    /// before every recorded time (and a microsecond before it), as positions.
    static func answers(_ store: any EventStore) async throws -> [String: [UInt64]] {
        var out: [String: [UInt64]] = [:]
        let all = try await store.readAll()
        for category in ["order", "orders", "cart", "pet", "inventory", "nothing"] {
            let expected = all.filter { $0.stream.isInCategory(category) }.map(\.position)
            for size in [1, 7, 1000] {
                let forward = try await store.readAll(.category(category), pageSize: size).map(\.position)
                let backward = try await store.readAll(.category(category), direction: .backward, pageSize: size).map(\.position)
                #expect(forward == expected, "\(category) by \(size)")
                #expect(backward == expected.reversed(), "\(category) by \(size)")
                out["\(category) forward \(size)"] = forward
                out["\(category) backward \(size)"] = backward
            }
            for from: UInt64 in [1, 9, 20, 300] {
                out["\(category) from \(from)"] = try await store.readAll(.category(category), from: from, pageSize: 5).map(\.position)
                out["\(category) back from \(from)"] = try await store.readAll(.category(category), direction: .backward, from: from, pageSize: 5)
                    .map(\.position)
                out["\(category) B from \(from)"] = try await store.readAll(.category(category), from: from, pageSize: 2, eventTypes: ["B"])
                    .map(\.position)
            }
        }
        var times: [UInt64] = []
        for e in all {
            for t in [e.recordedAt.microsecondsSinceEpoch - 1, e.recordedAt.microsecondsSinceEpoch] {
                let truth = all.last { $0.recordedAt.microsecondsSinceEpoch <= t }?.position
                let found = try await store.lastPosition(atOrBefore: Timestamp(microsecondsSinceEpoch: t))
                #expect(found == truth, "at \(t)")
                times.append(found ?? UInt64.max)
            }
        }
        out["times"] = times
        return out
    }

    /// Turns the events table of a fresh store back into layout 3's: a category column, indexes of every event by
    /// category and by time, and no table of the read models' present rows.
    static func eventsAtLayout3(_ c: PostgresConnection) throws {
        try c.execute(
            """
            DROP INDEX events_run_category; DROP INDEX events_run_recorded_at; DROP TABLE projection_present;
            ALTER TABLE events DROP COLUMN run_category, DROP COLUMN run_length;
            ALTER TABLE events ADD COLUMN category text COLLATE "C" GENERATED ALWAYS AS (split_part(stream_id, '-', 1)) STORED;
            CREATE INDEX events_category_position ON events (category, position);
            CREATE INDEX events_recorded_at ON events (recorded_at, position)
            """)
    }
}
