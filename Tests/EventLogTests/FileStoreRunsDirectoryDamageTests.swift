import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// Index runs are derived data: damage to the `runs` directory itself (here a file in its place) loses only the
/// runs, never the store's reads and appends, and `log verify` reports it rather than failing.
@Suite struct FileStoreRunsDirectoryDamageTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 3)

    @Test func `a file in place of the runs directory leaves the store working without runs`() async throws {
        let dir = TemporaryDirectory()
        do {
            let store = try FileEventStore.open(path: dir.path, options: Self.options)
            for k in 0..<40 { _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")]) }
            store.close()
            #expect(try store.stats().indexRuns == 2)
        }
        try FileManager.default.removeItem(atPath: dir.path + "/runs")
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: dir.path + "/runs"))

        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(try store.stats().indexRuns == 0)
        #expect(try await store.streamVersion(of: stream("pet-0")) == 7)
        let appended = try await store.append(to: stream("pet-0"), expected: .exact(7), [.json("Fed", "{}")])
        #expect(appended.streams[0].version == 8)
        store.close()
        #expect(try await store.events(of: stream("pet-0")).count == 9)
        let problems = try store.verify().problems
        #expect(problems.map(\.file) == ["runs"], "\(problems)")
    }
}
