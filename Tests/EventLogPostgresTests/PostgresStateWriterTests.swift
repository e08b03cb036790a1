import EventLog
@testable import EventLogPostgres
import Foundation
import PostgresTestSupport
import ProjectionRuntime
import Projections
import ProjectionStatePostgres
import Testing

/// A catch-up on PostgreSQL adds its rows without looking for rows past the checkpoint: no committed state holds any.
@Suite struct PostgresStateWriterTests {
    static let a = RowKey(table: 1, key: "a")

    static func checkpoint(_ position: UInt64) -> CheckpointInfo {
        CheckpointInfo(
            name: "p", schemaVersion: 1, position: position, eventsApplied: Int64(position), rebuiltAt: Timestamp(microsecondsSinceEpoch: 1),
            rebuildMicroseconds: 5, savedAt: Timestamp(microsecondsSinceEpoch: 2), eventID: UUID(), eventRecordedAt: Timestamp(microsecondsSinceEpoch: 3))
    }

    static func commit(_ store: PostgresProjectionStateStore, _ versions: [RowVersion], at position: UInt64, replacing: Bool) throws {
        let lock = try #require(try store.tryLock("p"))
        defer { lock.unlock() }
        let writer = try store.writer("p", version: 1, replacing: replacing)
        try writer.add(versions)
        try writer.finish(checkpoint(position))
    }

    static func rowsPast(_ position: Int, _ admin: PostgresSession) throws -> Int64? {
        try admin.runBlocking { c in try c.simpleQuery("SELECT count(*) FROM projection_rows WHERE position > \(position)").textInt64(0, 0) }
    }

    @Test func `a writer handed rows past its checkpoint commits none of them`() throws {
        let h = try PostgresHarness()
        let store = try PostgresProjectionStateStore(store: try #require(h.store as? PostgresEventStore))
        let admin = PostgresSession(url: h.url, schema: h.schema, label: "admin")
        try Self.commit(store, [RowVersion(key: Self.a, position: 3, value: [3], keep: true), RowVersion(key: Self.a, position: 8, value: [8], keep: true)], at: 5, replacing: true)
        #expect(try Self.rowsPast(5, admin) == 0)
        try Self.commit(store, [RowVersion(key: Self.a, position: 7, value: [7], keep: true)], at: 8, replacing: false)
        #expect(try store.open("p", version: 1)?.version(of: Self.a, asOf: nil)?.value == [7])
    }

    @Test func `the upgrade from layout 5 removes rows past their checkpoints, so a catch-up's write of their positions stands`() throws {
        let h = try PostgresHarness()
        let store = try PostgresProjectionStateStore(store: try #require(h.store as? PostgresEventStore))
        let admin = PostgresSession(url: h.url, schema: h.schema, label: "admin")
        try Self.commit(store, [RowVersion(key: Self.a, position: 3, value: [3], keep: true)], at: 5, replacing: true)
        // What a writer of layout 5 could leave: a version past the checkpoint, cleared then at each catch-up's start.
        try admin.runBlocking { c in
            try c.execute(
                """
                INSERT INTO projection_rows (name, version, generation, key, position, value, keep)
                  SELECT name, version, generation, key, 7, '\\x09'::bytea, keep FROM projection_rows WHERE position = 3;
                UPDATE schema_version SET version = 5
                """)
        }
        #expect(try PostgresEventStore.upgrade(url: h.url, schema: h.schema) == (5, PostgresEventStore.schemaVersion))
        #expect(try Self.rowsPast(5, admin) == 0)
        let reopened = try PostgresProjectionStateStore(store: try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema)))
        try Self.commit(reopened, [RowVersion(key: Self.a, position: 7, value: [7], keep: true)], at: 8, replacing: false)
        #expect(try reopened.open("p", version: 1)?.version(of: Self.a, asOf: nil)?.value == [7])
    }
}
