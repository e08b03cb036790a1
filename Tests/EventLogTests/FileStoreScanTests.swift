import EventLog
import EventLogFile
import Foundation
import Testing

/// Sequential scans over compacted segments with large blocks, where the next block is read and decompressed
/// ahead on another thread: every page size and starting point returns exactly what was written.
@Suite struct FileStoreScanTests {
    @Test func `scans with read-ahead return exactly the events written`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(
            path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 1200, blockSize: 256 << 10))
        var rng = SystemRandomNumberGenerator()
        var written: [(UUID, [UInt8])] = []
        for batch in 0..<40 {
            var events: [ProposedEvent] = []
            for i in 0..<100 {
                // Incompressible data, so blocks stay large enough to be fetched ahead.
                let noise = (0..<600).map { _ in "0123456789abcdef".randomElement(using: &rng)! }
                let e = ProposedEvent.json("Noise", #"{"b":\#(batch),"i":\#(i),"n":"\#(String(noise))"}"#)
                events.append(e)
                written.append((e.id, e.data))
            }
            _ = try await store.append(AppendRequest(entries: events.map { .init(stream: stream("noise-\(batch % 7)"), event: $0) }))
        }
        store.close()
        #expect(try store.stats().compactedSegments >= 2)
        let reopened = try FileEventStore.open(path: dir.path)
        for pageSize in [1, 97, 1000, 4096] {
            for start in [0, 1, 1199, 1200, 2345] {
                var seen: [RecordedEvent] = []
                try await reopened.forEachPage(.all, from: UInt64(start), pageSize: pageSize) { seen += $0; return true }
                #expect(seen.map(\.position) == Array(UInt64(start)..<UInt64(written.count)), "page \(pageSize) from \(start)")
                #expect(seen.map(\.id) == written[start...].map(\.0), "page \(pageSize) from \(start)")
                #expect(seen.map(\.data) == written[start...].map(\.1), "page \(pageSize) from \(start)")
            }
        }
    }
}
