import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import Testing

/// An append of many events asks every id index once for all of its ids (``LogState/noneCommitted(_:)``) and looks
/// ids up one by one only when an index holds a candidate. A retry must still be found wherever its ids are indexed:
/// in this process's memory, in the active segment's checkpoint, in a sealed segment's id index and in an index run.
@Suite struct BulkIDCheckTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 200, durability: .noSync, compactSealedSegments: false, indexRunSegments: 2,
        checkpointInterval: 50)

    /// An append of `n` events to one stream, large enough to be checked in bulk.
    static func bulk(_ name: String, _ n: Int = FileEventStore.batchIDCheckEntries + 16) -> AppendRequest {
        AppendRequest(stream: stream(name), expected: .any, events: events(n, prefix: name))
    }

    @Test func `a bulk append retried is found wherever its ids are indexed, and a half retry is refused`() async throws {
        let dir = TemporaryDirectory()
        let appends = (0..<9).map { Self.bulk("toy-\($0)") }
        var first: [AppendResult] = []
        do {
            let store = try FileEventStore.open(path: dir.path, options: Self.options)
            defer { store.close() }
            for a in appends {
                first.append(try await store.append(a))
                // Found among the ids this process indexed.
                let again = try await store.append(a)
                #expect(again.wasAlreadyCommitted && again.firstPosition == first.last?.firstPosition)
            }
            // The runs are the background upkeep's: waited for, then any still due built, so that a slow machine
            // leaves none to chance.
            store.close()
            _ = try store.upkeep(compacting: false)
            #expect(try store.stats().indexRuns >= 1)
        }
        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        #expect(try ActiveCheckpointTests.adoptedEvents(reopened) != nil, "the last appends are read from a checkpoint")
        // The oldest in an index run, the middle ones in sealed segments, the last in the checkpoint.
        for (a, result) in zip(appends, first) {
            let again = try await reopened.append(a)
            #expect(again.wasAlreadyCommitted && again.firstPosition == result.firstPosition && again.streams == result.streams)
        }
        // One id of an earlier append among new ones: neither a retry nor a new append.
        for old in [appends[0], appends[8]] {
            var mixed = Self.bulk("toy-mixed")
            mixed.entries[40].event.id = old.entries[3].event.id
            await #expect(throws: EventStoreError.self) { try await reopened.append(mixed) }
        }
        // New ids throughout: written.
        let fresh = try await reopened.append(Self.bulk("toy-new"))
        #expect(!fresh.wasAlreadyCommitted && fresh.firstPosition == (first.last?.lastPosition).map { $0 + 1 })
    }

    @Test func `a bulk append whose ids only share index keys with committed ones is written`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        let colliding = ActiveCheckpointKeyBitsTests.colliding
        try await store.append(to: stream("toy-1"), [event("Bought", "{}", id: colliding[0])])
        // A candidate in the index (same key bits), but another id: each id is then looked up, and none is committed.
        var request = Self.bulk("toy-2")
        request.entries[10].event.id = colliding[1]
        let written = try await store.append(request)
        #expect(!written.wasAlreadyCommitted && written.firstPosition == 1)
        let again = try await store.append(request)
        #expect(again.wasAlreadyCommitted && again.firstPosition == 1)
    }
}
