import EventLog
import EventLogFile
import Foundation
import Testing

/// Compaction rewrites how sealed segments are stored, never what they hold: the store's figures of its events
/// stay as they were, `rawBytes` included, to the byte.
@Suite struct FileStoreCompactionStatsTests {
    @Test func `compaction leaves the events' figures unchanged`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(
            createIfMissing: true, maxSegmentEvents: 200, durability: .noSync, blockSize: 4096, compactSealedSegments: false)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for k in 0..<300 {
            let events = (0..<(1 + k % 3)).map { i in ProposedEvent.json("Fed", "{\"k\":\(k),\"i\":\(i),\"pad\":\"\(String(repeating: "x", count: k % 50))\"}") }
            _ = try await store.append(to: stream("pet-\(k % 11)"), events)
        }
        store.close()
        let before = try store.stats()
        #expect(before.compactedSegments == 0)
        #expect(try store.compact().count == before.segments - 1)
        let after = try store.stats()
        #expect(after.compactedSegments == before.segments - 1)
        #expect(after.rawBytes == before.rawBytes)
        #expect(after.events == before.events)
        #expect(after.streams == before.streams)
        #expect(try FileEventStore.open(path: dir.path, options: options).stats().rawBytes == before.rawBytes)
    }
}
