import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// An index run whose files cannot be written (a directory in the way, no room, no permission) is given up for
/// the process, as a run over damaged segments is: every build reads all of its segments' data, and the upkeep
/// runs after every commit group, so retrying would read them again and again for as long as appends go on.
@Suite struct FileStoreIndexRunWriteFailureTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 3)
    static let firstRun = "/runs/00000000000000000000-00000000000000000017"

    private static func inode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
    }

    @Test func `a run whose files cannot be written is not built again after every append`() async throws {
        let dir = TemporaryDirectory()
        // A directory where the first run's .ridx goes: its .eidx is written, its .ridx never.
        try FileManager.default.createDirectory(atPath: dir.path + Self.firstRun + ".ridx/in-the-way", withIntermediateDirectories: true)
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        for k in 0..<24 { _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")]) }
        store.close()
        #expect(try store.stats().indexRuns == 0)
        let built = try Self.inode(dir.path + Self.firstRun + ".eidx")

        // Later appends do not build the run again (a rebuild replaces the .eidx with a new file).
        for k in 24..<30 {
            _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")])
            store.close()
        }
        #expect(try Self.inode(dir.path + Self.firstRun + ".eidx") == built, "the run was built again")
        #expect(try await store.streamVersion(of: "pet-0") == 5)

        // Reopened once the way is clear, the store builds it.
        try FileManager.default.removeItem(atPath: dir.path + Self.firstRun + ".ridx")
        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        _ = try await reopened.append(to: "pet-0", [.json("Fed", "{}")])
        reopened.close()
        #expect(try reopened.stats().indexedSegments == 3)
        #expect(try reopened.verify().problems == [])
    }
}
