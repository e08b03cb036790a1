import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import Testing

/// Two processes' stores on one directory: runs one process's upkeep built are taken up by the other's, not
/// built again (each build reads every event of its segments).
@Suite struct FileStoreIndexRunSharingTests {
    private func inode(_ path: String) throws -> UInt64 {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    @Test func `runs another process built meanwhile are taken up, not built again`() async throws {
        let dir = TemporaryDirectory()
        let building = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, durability: .noSync, indexRunSegments: 0)
        do {
            let store = try FileEventStore.open(path: dir.path, options: building)
            for k in 0..<33 { _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")]) }
            store.close()
        }
        let options = FileEventStoreOptions(durability: .noSync, indexRunSegments: 4)
        // This one lists the store now, before any run exists.
        let late = try FileEventStore.open(path: dir.path, options: options)
        #expect(try late.stats().indexRuns == 0)
        // Another process builds the runs.
        let other = try FileEventStore.open(path: dir.path, options: options)
        try other.compact()
        #expect(try other.stats().indexRuns == 2)
        let runs: String = dir.path + "/runs/"
        var files: [String] = []
        for run in ["00000000000000000000-00000000000000000015", "00000000000000000016-00000000000000000031"] {
            files.append(runs + run + ".ridx")
            files.append(runs + run + ".eidx")
        }
        let before = try files.map(inode)
        // An append that rolls no segment does not list the store again; its upkeep finds the runs due in its view.
        _ = try await late.append(to: "pet-1", [.json("Fed", "{}")])
        late.close()
        #expect(try files.map(inode) == before, "the runs were written again")
        #expect(try late.stats().indexRuns == 2)
    }
}
