import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// Index runs over segments whose data spans several frames of different sizes, as every segment of a store with
/// the default options does once compacted (1 MiB blocks, the last one of a segment smaller). The run's builder
/// decompresses each frame into one reused buffer, which holds the payload in its first `rawLength` bytes only:
/// after a larger frame, a smaller one is followed by the larger one's leftover bytes. Reading past them made every
/// such run fail ("payload holds N events; the frame header says N"), so no store of real size had a run, and
/// `log compact` failed with that message.
@Suite struct FileStoreIndexRunBlockTests {
    /// 120 events a segment, compacted into blocks of about 2 KiB: several blocks a segment, of different sizes.
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 120, durability: .noSync, blockSize: 2 << 10, indexRunSegments: 2)

    /// One commit of 1 to 4 events with data of different lengths, to streams spread over the segments.
    static func fill(_ store: FileEventStore, commits: Int) async throws -> [StreamID: [UUID]] {
        var written: [StreamID: [UUID]] = [:]
        for k in 0..<commits {
            let s = stream("pet-\(k % 11)")
            let batch = (0...(k % 4)).map { i in
                event("Weighed", "{\"k\":\(k),\"i\":\(i),\"note\":\"\(String(repeating: "x", count: (k * 37 + i * 11) % 300))\"}")
            }
            _ = try await store.append(to: s, batch)
            written[s, default: []].append(contentsOf: batch.map(\.id))
        }
        return written
    }

    @Test func `runs are built over segments compacted into blocks of different sizes`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        let written = try await Self.fill(store, commits: 400)
        store.close()
        let stats = try store.stats()
        // 1,000 events in segments of 120: 8 sealed, all compacted, 4 runs of 2 over them.
        #expect(stats.segments == 9)
        #expect(stats.compactedSegments == 8)
        #expect(stats.indexRuns == 4)
        #expect(stats.indexedSegments == 8)
        let first = try store.inspect(segment: "0")
        #expect(first.frames.count > 2)
        #expect(Set(first.frames.map(\.rawLength)).count > 1)
        #expect(try store.verify().problems == [])
        for (s, ids) in written {
            #expect(try await store.streamVersion(of: s) == UInt64(ids.count - 1), "\(s)")
            #expect(try await store.events(of: s).map(\.id) == ids, "\(s)")
        }
    }

    @Test func `compact builds the runs of a store written without them`() async throws {
        let dir = TemporaryDirectory()
        var without = Self.options
        without.indexRunSegments = 0
        do {
            let store = try FileEventStore.open(path: dir.path, options: without)
            _ = try await Self.fill(store, commits: 400)
            store.close()
            #expect(try store.stats().indexRuns == 0)
        }
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(try store.compact() == [])
        let stats = try store.stats()
        #expect(stats.indexRuns == 4)
        #expect(stats.indexedSegments == 8)
        #expect(try store.verify().problems == [])
    }
}
