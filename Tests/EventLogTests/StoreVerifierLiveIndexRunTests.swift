import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// `log verify` on a store whose writer is at work: the upkeep writes a run's two files one after the other and
/// builds runs over segments sealed while the verifier reads the data. Neither is damage.
@Suite struct StoreVerifierLiveIndexRunTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 3)

    private static func fill(_ store: FileEventStore, _ range: Range<Int>) async throws {
        for k in range { _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")]) }
        store.close()
    }

    @Test func `a run the upkeep is writing is no problem, one a writer left half written is`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await Self.fill(store, 0..<40)
        #expect(try store.stats().indexRuns == 2)
        // Between the run's .eidx and its .ridx, as the upkeep writes them.
        try FileManager.default.removeItem(atPath: dir.path + "/runs/00000000000000000018-00000000000000000035.ridx")
        let upkeep = try FileDescriptor.open(dir.path + "/" + LogFormat.compactionLockName, .readWriteCreate)
        #expect(try upkeep.lockExclusive(wait: false))
        let during = try store.verify().problems
        #expect(during == [], "\(during)")
        try upkeep.unlock()
        // Nobody at work: the writer died between the two files.
        #expect(try store.verify().problems.map(\.file) == ["runs/00000000000000000018-00000000000000000035.eidx"])
    }

    @Test func `a run built over segments sealed after the verifier's view is no problem`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await Self.fill(store, 0..<20)
        // The verifier takes its view, then reads every segment; meanwhile the writer seals more and builds a run.
        let view = LogState(root: dir.path, options: Self.options)
        try view.refresh(writer: false)
        #expect(view.sealed.count == 3)
        try await Self.fill(store, 20..<40)
        #expect(try store.stats().indexRuns == 2)
        let problems = try StoreVerifier(state: view).run().problems
        #expect(problems == [], "\(problems)")
    }
}
