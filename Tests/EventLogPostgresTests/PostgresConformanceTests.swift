import EventLogPostgres
import EventLogTestKit
import ProjectionRuntimeTestKit
import ProjectionStatePostgres
import Testing

/// The store conformance kit on the PostgreSQL store: every case the file and memory stores pass.
@Suite struct PostgresConformanceTests {
    @Test(arguments: EventStoreConformance.cases)
    func conformance(_ c: EventStoreConformance.Case) async throws {
        try await c.run(PostgresHarness())
    }
}

/// The store conformance kit through libpq, which serves the URLs the wire client does not (TLS, several hosts,
/// target_session_attrs, password files): the same cases on the same server.
@Suite struct PostgresLibPQConformanceTests {
    @Test(arguments: EventStoreConformance.cases)
    func conformance(_ c: EventStoreConformance.Case) async throws {
        try await c.run(PostgresHarness(client: .libpq))
    }
}

/// The import kit, which `store migrate` relies on, on the PostgreSQL store (COPY in binary).
@Suite struct PostgresImportingTests {
    @Test(arguments: EventImportingConformance.cases)
    func importing(_ c: EventImportingConformance.Case) async throws {
        try await c.run(PostgresHarness())
    }
}

/// The snapshot store conformance kit on the store's `snapshots` table.
@Suite struct PostgresSnapshotStoreTests {
    @Test(arguments: SnapshotStoreConformance.cases)
    func conformance(_ c: SnapshotStoreConformance.Case) async throws {
        let h = try PostgresHarness()
        let store = try #require(h.store as? PostgresEventStore)
        try await c.run(PostgresSnapshotStore(store: store))
    }
}

/// The personal index conformance kit on the store's `personal_index` tables.
@Suite struct PostgresPersonalIndexTests {
    @Test(arguments: PersonalIndexConformance.cases)
    func conformance(_ c: PersonalIndexConformance.Case) async throws {
        let h = try PostgresHarness()
        let store = try #require(h.store as? PostgresEventStore)
        try await c.run(try #require(try PostgresProjectionStateStore(store: store).personalIndex()))
    }
}

/// The read models' state store conformance kit on the store's projection tables.
@Suite struct PostgresProjectionStateStoreTests {
    @Test(arguments: ProjectionStateStoreConformance.cases)
    func conformance(_ c: ProjectionStateStoreConformance.Case) throws {
        let h = try PostgresHarness()
        let store = try #require(h.store as? PostgresEventStore)
        try c.run(PostgresProjectionStateStore(store: store))
    }
}
