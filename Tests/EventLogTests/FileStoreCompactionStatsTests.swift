import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
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

/// The upkeep compacts a sealed segment of small commits, and leaves one of commits as large as a block as it was
/// written; `log compact` (``FileEventStore/compact()``) compacts both.
@Suite struct FileStoreCompactionChoiceTests {
    @Test func `segments of large commits are left as written until compacted by hand`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 400, durability: .noSync, blockSize: 8192)
        let store = try FileEventStore.open(path: dir.path, options: options)
        let pad = String(repeating: "x", count: 200)
        // The first segment: 400 events in commits of 100 (about 25 KB each, larger than a block).
        for k in 0..<4 {
            _ = try await store.append(to: stream("import-\(k)"), (0..<100).map { i in ProposedEvent.json("Fed", "{\"k\":\(k),\"i\":\(i),\"p\":\"\(pad)\"}") })
        }
        // The second: 400 single-event commits.
        for k in 0..<400 {
            _ = try await store.append(to: stream("pet-\(k % 7)"), [ProposedEvent.json("Fed", "{\"k\":\(k),\"p\":\"\(pad)\"}")])
        }
        _ = try await store.append(to: stream("pet-0"), [ProposedEvent.json("Fed", "{}")])
        store.close()
        let segments = try store.withState(writer: false) { s in s.sealed.map { ($0.header.layout, $0.compactionPays(blockSize: 8192)) } }
        #expect(segments.count == 2)
        #expect(segments[0].0 == .commits && !segments[0].1, "large commits are kept as written")
        #expect(segments[1].0 == .blocks, "small commits are compacted by the upkeep")
        #expect(try store.compact().count == 1)
        #expect(try store.withState(writer: false) { s in s.sealed.map(\.header.layout) } == [.blocks, .blocks])
        #expect(try store.verify().isOK)
    }
}
