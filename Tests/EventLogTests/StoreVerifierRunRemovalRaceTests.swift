import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// `log verify` while another process's upkeep removes run files (superseded by a longer run, or damaged): a run
/// file the verifier listed and then found gone was removed by an upkeep, never damage, even when that upkeep is
/// done by the time the verifier asks whether one is at work (it occurs in a multi-process stress run with
/// processes of different `indexRunSegments` on one store).
@Suite struct StoreVerifierRunRemovalRaceTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 2)

    @Test func `run files an upkeep removes while verify reads are no problem`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        for k in 0..<40 { _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")]) }
        store.close()
        #expect(try store.stats().indexRuns == 3)
        let view = LogState(root: dir.path, options: Self.options)
        try view.refresh(writer: false)
        // Another process's upkeep, between the verifier's listing and its reads: it takes the upkeep lock if it
        // is free, removes a run's files, and is done (the lock is free again).
        let upkeepPass = {
            let lock = try FileDescriptor.open(dir.path + "/" + LogFormat.compactionLockName, .readWriteCreate)
            guard try lock.lockExclusive(wait: false) else { return }
            for ext in [".ridx", ".eidx"] {
                try FileSystem.removeFile(dir.path + "/runs/00000000000000000012-00000000000000000023" + ext)
            }
            try lock.unlock()
        }
        let problems = try StoreVerifier(state: view, afterListingRuns: upkeepPass).run().problems
        #expect(problems == [], "\(problems)")
        // Nobody at work: a run's file missing now is reported.
        try FileSystem.removeFile(dir.path + "/runs/00000000000000000024-00000000000000000035.eidx")
        #expect(try StoreVerifier(state: view).run().problems.map(\.file) == ["runs/00000000000000000024-00000000000000000035.eidx"])
    }
}
