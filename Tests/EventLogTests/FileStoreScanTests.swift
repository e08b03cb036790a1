import EventLog
@testable import EventLogTestKit
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

    /// Several scans going on at once (a rebuild's threads each reading the log) interleave their pages; each must
    /// still see exactly its own sequence, whatever the others do to the shared frame state.
    @Test func `interleaved concurrent scans each return exactly the events written`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(
            path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 1200, blockSize: 64 << 10))
        var rng = SystemRandomNumberGenerator()
        var written: [UUID] = []
        for batch in 0..<30 {
            var events: [ProposedEvent] = []
            for i in 0..<100 {
                let noise = (0..<400).map { _ in "0123456789abcdef".randomElement(using: &rng)! }
                let e = ProposedEvent.json(i % 3 == 0 ? "Fizz" : "Noise", #"{"b":\#(batch),"i":\#(i),"n":"\#(String(noise))"}"#)
                events.append(e)
                written.append(e.id)
            }
            _ = try await store.append(AppendRequest(entries: events.map { .init(stream: stream("noise-\(batch % 7)"), event: $0) }))
        }
        store.close()
        let reopened = try FileEventStore.open(path: dir.path)
        let ids = written
        // More scans than the store keeps cursors for, with different page sizes, starts and filters, in lock step.
        let scans: [(from: Int, page: Int, types: Set<String>?)] = [
            (0, 50, nil), (0, 77, ["Fizz"]), (1500, 64, nil), (10, 333, ["Noise"]), (2999, 1, nil), (700, 128, nil),
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for scan in scans {
                group.addTask {
                    var seen: [UUID] = []
                    var from: UInt64? = UInt64(scan.from)
                    while let f = from {
                        let batch = try await reopened.read(ReadRequest(source: .all, from: f, limit: scan.page, eventTypes: scan.types))
                        seen += batch.events.map(\.id)
                        from = batch.next
                        await Task.yield()
                    }
                    let expected = ids.enumerated().filter { i, _ in
                        i >= scan.from && (scan.types == nil || scan.types!.contains(i % 100 % 3 == 0 ? "Fizz" : "Noise"))
                    }.map(\.element)
                    #expect(seen == expected, "scan from \(scan.from), pages of \(scan.page)")
                }
            }
            try await group.waitForAll()
        }
    }
}

@Suite struct LargeCommitTests {
    /// A commit whose payload is too large for the frame cache: reading its events one by one (a stream read goes
    /// through the position index) must still return each event's own bytes.
    @Test func `events of a commit too large for the frame cache read back exactly`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        var rng = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        let events = (0..<20).map { i in
            // Incompressible, so the payload stays over the cache's limit for one frame.
            var noise = [UInt8](repeating: 0, count: 900_000)
            noise.withUnsafeMutableBufferPointer { buffer in
                var bits = rng.next()
                for j in buffer.indices {
                    if j % 16 == 0 { bits = rng.next() }
                    buffer[j] = hex[Int(bits & 15)]
                    bits >>= 4
                }
            }
            return ProposedEvent.json("Big", #"{"i":\#(i),"n":"\#(String(decoding: noise, as: UTF8.self))"}"#)
        }
        _ = try await store.append(AppendRequest(entries: events.enumerated().map { .init(stream: stream("big-\($0.offset % 2)"), event: $0.element) }))
        // One event from the middle of the commit (each such read decompresses the whole frame again: one is enough).
        let page = try await store.read(ReadRequest(source: .stream(stream("big-1")), from: 3, limit: 1))
        #expect(page.events.map(\.id) == [events[7].id])
        #expect(page.events.first?.data == events[7].data)
    }
}
