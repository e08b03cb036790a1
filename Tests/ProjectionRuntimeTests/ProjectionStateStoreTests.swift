import EventLog
import Events
import Foundation
@testable import ProjectionRuntime
import ProjectionRuntimeTestKit
import ProjectionStateFile
import Projections
import Testing

@Suite("Personal indexes: conformance")
struct PersonalIndexConformanceTests {
    @Test(arguments: PersonalIndexConformance.cases)
    func inMemory(_ c: PersonalIndexConformance.Case) async throws {
        try await c.run(MemoryPersonalIndex())
    }

    @Test(arguments: PersonalIndexConformance.cases)
    func sqlite(_ c: PersonalIndexConformance.Case) async throws {
        let scratch = try Scratch()
        try await c.run(try #require(try FileProjectionStateStore(storePath: scratch.path).personalIndex()))
    }

    /// Derived data: a file that is not the index's database is made anew, and the index works from empty.
    @Test func aDamagedSQLiteIndexIsMadeAnew() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/projections", withIntermediateDirectories: true)
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131) }).write(to: URL(fileURLWithPath: scratch.path + "/projections/personal-index.sqlite"))
        let index = try #require(try FileProjectionStateStore(storePath: scratch.path).personalIndex())
        #expect(try await index.checkpoint() == nil)
        let entry = PersonalIndexEntry(values: ["Ann", "", ""], sortKey: "ann", terms: ["ann"])
        #expect(try await index.apply([.put("u-1", entry, at: 1)], from: nil, through: 1, version: 1))
        #expect(try await index.subjects(asOf: 1, matching: [], offset: 0, limit: 5).subjects == ["u-1"])
    }
}

@Suite("Projection state stores: conformance")
struct ProjectionStateStoreConformanceTests {
    @Test(arguments: ProjectionStateStoreConformance.cases)
    func inMemory(_ c: ProjectionStateStoreConformance.Case) throws {
        try c.run(InMemoryProjectionStateStore())
    }

    @Test(arguments: ProjectionStateStoreConformance.cases)
    func files(_ c: ProjectionStateStoreConformance.Case) throws {
        let scratch = try Scratch()
        try c.run(FileProjectionStateStore(storePath: scratch.path))
    }

    /// Small spills make a writer write many runs per commit, and merges happen sooner.
    @Test(arguments: ProjectionStateStoreConformance.cases)
    func filesWithTinySpills(_ c: ProjectionStateStoreConformance.Case) throws {
        let scratch = try Scratch()
        try c.run(FileProjectionStateStore(storePath: scratch.path, spillBytes: 64))
    }
}

@Suite("Time travel through stored rows")
struct StoredTimeTravelTests {
    /// The business of ``ParallelRebuildTests`` appended in rounds, each read (a catch-up committed) before the next:
    /// every projection's state as of every position equals the fold of the events up to it.
    @Test func everyPositionAfterManyCatchUpsEqualsTheFold() async throws {
        let w = try World()
        let engine = ProjectionEngine(store: w.store, states: FileProjectionStateStore(storePath: w.scratch.path, spillBytes: 256), snapshotInterval: 6)
        for round in 0..<6 {
            try await ParallelRebuildTests.business(w, prefix: "r\(round)-")
            for p in ProjectionCatalog.projections { _ = try await p.loadedPosition(engine) }
        }
        let all = try await w.store.readAll()
        let last = try #require(try await w.store.lastPosition())
        for p in ProjectionCatalog.projections {
            for n in stride(from: 0, through: last, by: 3) {
                #expect(try await p.pastRows(engine, n) == (try p.foldedRows(all, through: n)), "\(p.name) as of \(n)")
            }
            let audit = try await p.audited(engine)
            #expect(audit.differences.isEmpty, "\(p.name): \(audit.differences.prefix(3))")
        }
    }

    @Test func aRunDamagedInABlockIsFoundWhenReadAndTheStateIsFoldedAnew() async throws {
        let w = try World()
        try await ParallelRebuildTests.business(w)
        let engine = w.engine()
        let live = try await engine.load(OrdersProjection.self)
        let dir = w.scratch.path + "/projections/orders/v\(OrdersProjection.schemaVersion)/"
        for run in try FileManager.default.contentsOfDirectory(atPath: dir) where run.hasSuffix(".run") {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: dir + run))
            bytes[24] ^= 0x5A
            try bytes.write(to: URL(fileURLWithPath: dir + run))
        }
        // A fresh read hits the damaged block through the rows it asks for, and fails rather than answer wrong.
        let damaged = try await engine.load(OrdersProjection.self)
        _ = damaged.state.orders["o-0"]
        let failure = try #require(damaged.readFailure)
        guard (failure as? EventStoreError)?.code == .corrupted else { Issue.record("read failure \(failure)"); return }
        let repaired = try await engine.repair(OrdersProjection.self, damage: failure)
        #expect(repaired.state.orders["o-0"] == live.state.orders["o-0"] && repaired.repaired != nil)
        let after = try await engine.load(OrdersProjection.self)
        #expect(after.state.orders["o-0"] == live.state.orders["o-0"] && after.readFailure == nil)
    }
}

extension Projection {
    static func loadedPosition(_ engine: ProjectionEngine) async throws -> UInt64? {
        try await engine.load(Self.self).position
    }

    static func audited(_ engine: ProjectionEngine) async throws -> ProjectionEngine.Audit {
        try await engine.audit(Self.self)
    }
}
