@testable import EventLogTestKit
import Testing

/// The store conformance kit (``EventStoreConformance``) on every backend of this package: the in-memory
/// reference store and the file store in three variants (see ``Backend``).
@Suite struct StoreConformanceTests {
    @Test(arguments: Backend.allCases, EventStoreConformance.cases)
    func conformance(backend: Backend, _ c: EventStoreConformance.Case) async throws {
        try await c.run(Harness(backend))
    }
}

/// The import kit (``EventImportingConformance``) on the file store's variants: what `store migrate` writes into a
/// directory.
@Suite struct FileStoreImportingTests {
    @Test(arguments: Backend.fileBacked, EventImportingConformance.cases)
    func importing(backend: Backend, _ c: EventImportingConformance.Case) async throws {
        try await c.run(Harness(backend))
    }
}
