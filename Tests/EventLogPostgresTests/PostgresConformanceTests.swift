import EventLogTestKit
import Testing

/// The store conformance kit on the PostgreSQL store: every case the file and memory stores pass.
@Suite struct PostgresConformanceTests {
    @Test(arguments: EventStoreConformance.cases)
    func conformance(_ c: EventStoreConformance.Case) async throws {
        try await c.run(PostgresHarness())
    }
}
