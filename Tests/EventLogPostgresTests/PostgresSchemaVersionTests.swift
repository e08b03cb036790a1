import EventLog
@testable import EventLogPostgres
@testable import EventLogTestKit
import Foundation
import PostgresTestSupport
import Testing

/// The store's layout version: a newer one is refused like a newer file format, an older one asks for an upgrade.
@Suite struct PostgresSchemaVersionTests {
    @Test func `a store of a newer layout is refused, an older one sent to store upgrade`() throws {
        let h = try PostgresHarness()
        let admin = PostgresSession(url: h.url, schema: h.schema, label: "admin")
        try admin.runBlocking { c in try c.execute("UPDATE schema_version SET version = 99") }
        let newer = #expect(throws: EventStoreError.self) { try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema)) }
        #expect(newer?.code == .incompatibleFormat, "\(String(describing: newer))")
        #expect(throws: EventStoreError.self) { try PostgresEventStore.upgrade(url: h.url, schema: h.schema) }

        try admin.runBlocking { c in try c.execute("UPDATE schema_version SET version = 0") }
        let older = #expect(throws: EventStoreError.self) { try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema)) }
        #expect(older?.description.contains("pawtrail store upgrade") == true, "\(String(describing: older))")

        try admin.runBlocking { c in try c.execute("UPDATE schema_version SET version = \(PostgresEventStore.schemaVersion)") }
        #expect(try PostgresEventStore.upgrade(url: h.url, schema: h.schema) == (PostgresEventStore.schemaVersion, PostgresEventStore.schemaVersion))
    }

    @Test func `store upgrade moves a store of layout 1 to this build's, keeping its read models' checkpoints`() throws {
        let h = try PostgresHarness()
        let admin = PostgresSession(url: h.url, schema: h.schema, label: "admin")
        // Layout 1, as the first build wrote it, with a checkpoint in it.
        try admin.runBlocking { c in
            try PostgresRunTests.eventsAtLayout3(c)
            try c.execute(
                """
                ALTER TABLE projection_states DROP COLUMN event_recorded_at;
                INSERT INTO projection_states VALUES ('p', 1, 1, 1, 7, 8, 1, 2, 3, '00000000-0000-4000-8000-000000000007');
                UPDATE schema_version SET version = 1
                """)
        }
        let refused = #expect(throws: EventStoreError.self) { try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema)) }
        #expect(refused?.description.contains("pawtrail store upgrade") == true, "\(String(describing: refused))")
        #expect(try PostgresEventStore.upgrade(url: h.url, schema: h.schema) == (1, PostgresEventStore.schemaVersion))
        _ = try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema))
        let row = try admin.runBlocking { c in
            try c.simpleQuery("SELECT position, event_id, event_recorded_at IS NULL FROM projection_states WHERE name = 'p'")
        }
        #expect(row.textInt64(0, 0) == 7)
        #expect(row.string(0, 1) == "00000000-0000-4000-8000-000000000007")
        #expect(row.string(0, 2) == "t")
    }

    @Test(arguments: [("off", "on"), ("local", "local"), ("on", "on"), ("remote_apply", "remote_apply")])
    func `a session asked not to flush at COMMIT flushes anyway, and stronger settings are kept`(asked: String, used: String) throws {
        let url = try PostgresTestServer.require() + "&options=-c%20synchronous_commit%3D\(asked)"
        let session = PostgresSession(url: url, schema: "public", label: "durability")
        let shown = try session.runBlocking { c in try c.simpleQuery("SHOW synchronous_commit").string(0, 0) }
        #expect(shown == used)
    }
}
