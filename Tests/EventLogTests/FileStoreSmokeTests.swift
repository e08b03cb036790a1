import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

@Suite struct FileStoreSmokeTests {
    @Test func `append, read back, reopen, roll over and compact`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, segmentSize: 16 << 10, dictionaryTrainingThreshold: 32 << 10)
        let store = try FileEventStore.open(path: dir.path, options: options)
        var expected: [RecordedEvent] = []
        for i in 0..<600 {
            let s = stream("order-\(i % 37)")
            var events: [ProposedEvent] = []
            for k in 0..<2 {
                let n = i * 2 + k
                events.append(ProposedEvent.json("OrderNoted", #"{"n":\#(n),"note":"litter box \#(n % 11) with a bit of text to compress"}"#, metadata: ["actor": "user-\(n % 5)"]))
            }
            let r = try await store.append(AppendRequest(stream: s, events: events))
            #expect(r.firstPosition == UInt64(i * 2))
            for (k, e) in events.enumerated() {
                expected.append(RecordedEvent(position: UInt64(i * 2 + k), stream: s, version: UInt64(i / 37 * 2 + k), type: e.type, id: e.id, recordedAt: Timestamp(microsecondsSinceEpoch: 0), metadata: e.metadata, data: e.data))
            }
        }
        store.close()
        let stats = try store.stats()
        #expect(stats.events == 1200)
        #expect(stats.streams == 37)
        #expect(stats.segments > 2)
        #expect(stats.compactedSegments >= 1)
        #expect(stats.dictionaries == 1)
        let reopened = try FileEventStore.open(path: dir.path)
        var all: [RecordedEvent] = []
        try await reopened.forEachPage(.all, pageSize: 100) { all += $0; return true }
        #expect(all.count == 1200)
        for (a, b) in zip(all, expected) {
            #expect(a.position == b.position && a.stream == b.stream && a.version == b.version && a.id == b.id && a.data == b.data && a.metadata == b.metadata)
        }
        let s5 = try await reopened.read(ReadRequest(source: .stream(stream("order-5")), direction: .backward, limit: 3))
        #expect(s5.events.map(\.version) == [33, 32, 31])
        #expect(try await reopened.streamVersion(of: stream("order-5")) == 33)
        // Idempotent retry of an event committed in a compacted segment.
        let first = expected[3]
        let retry = try await reopened.append(AppendRequest(stream: first.stream, events: [ProposedEvent(id: first.id, type: first.type, data: first.data, metadata: first.metadata)]))
        #expect(retry.wasAlreadyCommitted && retry.firstPosition == 3)
        let report = try reopened.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        let cat = try await reopened.read(ReadRequest(source: .category("order"), from: 1190, limit: 100))
        #expect(cat.events.count == 10)
    }
}
