import EventLog
@testable import EventLogPostgres
import EventLogTestKit
import PostgresTestSupport
import Foundation
import Testing

/// A fresh, empty store in a schema of its own on the test server, dropped when the harness goes away. Each
/// ``checkpoint()`` opens the store again on a new connection, so what a case reads next comes from the server.
final class PostgresHarness: StoreHarness, @unchecked Sendable {
    let url: String
    let schema = "pt_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let client: PostgresClient
    private(set) var store: any EventStore

    init(client: PostgresClient = .automatic) throws {
        url = try PostgresTestServer.require()
        self.client = client
        store = try PostgresEventStore.open(url: url, options: .init(schema: schema, createIfMissing: true, client: client))
    }

    deinit {
        let session = PostgresSession(url: url, schema: "public", label: "drop")
        try? session.runBlocking { c in try c.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.identifier(schema)) CASCADE") }
    }

    func checkpoint() throws { try reopen() }

    func reopen() throws {
        store = try PostgresEventStore.open(url: url, options: .init(schema: schema, client: client))
    }
}
