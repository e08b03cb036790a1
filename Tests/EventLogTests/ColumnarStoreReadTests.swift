@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// A store whose sealed segments were compacted into columnar blocks of many sizes reads through every path: a
/// columnar payload is decoded with bytes to spare past its length, and no reader may take those for events.
@Suite struct ColumnarStoreReadTests {
    /// Events of JSON data of varied sizes (so that a smaller block follows a larger one in the reused buffers).
    private func batch(_ first: Int, _ count: Int) -> [ProposedEvent] {
        (first..<(first + count)).map { i in
            let note = String(repeating: "n", count: (i * 37) % 300)
            return event(
                "Weighed\(i % 3)",
                #"{"petId":"\#(UUID().uuidString.lowercased())","grams":\#(i * 13 - 500),"at":"2026-06-01T00:\#(String(format: "%02d", i % 60)):00.000001Z","note":"\#(note)"}"#,
                metadata: i % 2 == 0 ? ["correlationId": UUID().uuidString.lowercased()] : [:])
        }
    }

    @Test func `every read of a store compacted into columnar blocks gives back what was written`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(
            createIfMissing: true, maxSegmentEvents: 40, blockSize: 3_000, compactSealedSegments: false, indexRunSegments: 2,
            checkpointInterval: 8)
        let store = try FileEventStore.open(path: dir.path, options: options)
        var requests: [AppendRequest] = []
        var written: [ProposedEvent] = []
        for i in 0..<45 {
            let events = batch(i * 7, 1 + i % 7)
            written += events
            requests.append(AppendRequest(stream: stream("pet-\(i % 5)"), events: events))
            _ = try await store.append(requests[i])
        }
        #expect(try !store.compact().isEmpty)
        store.close()
        // The index runs were built from the columnar blocks.
        #expect(try !FileManager.default.contentsOfDirectory(atPath: dir.path + "/runs").isEmpty)

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        var codecs: Set<String> = []
        for name in try reopened.segmentNames() {
            for f in try reopened.inspect(segment: name).frames where f.kind == "block" { codecs.insert(f.codec) }
        }
        #expect(codecs.contains("columns+zstd by groups"), "\(codecs)")
        let all = try await reopened.readAll(pageSize: 7)
        #expect(all.map(\.id) == written.map(\.id))
        #expect(all.map(\.data) == written.map(\.data))
        #expect(all.map(\.metadata) == written.map(\.metadata))
        #expect(try await reopened.readAll(direction: .backward, pageSize: 5).map(\.id) == all.map(\.id).reversed())
        for from: UInt64 in [0, 39, 40, 41, 117, UInt64(all.count - 1)] {
            #expect(try await reopened.readAll(from: from, pageSize: 3).map(\.id) == all[Int(from)...].map(\.id))
        }
        #expect(try await reopened.readAll(eventTypes: ["Weighed1"]).map(\.id) == all.filter { $0.type == "Weighed1" }.map(\.id))
        for s in 0..<5 {
            let expected = all.filter { $0.stream == stream("pet-\(s)") }
            #expect(try await reopened.events(of: stream("pet-\(s)")).map(\.data) == expected.map(\.data))
            #expect(try await reopened.readAll(.stream(stream("pet-\(s)")), direction: .backward, pageSize: 4).map(\.id) == expected.map(\.id).reversed())
        }
        #expect(try await reopened.readAll(.category("pet"), pageSize: 9).map(\.id) == all.map(\.id))
        // Retries of appends whose events now lie in columnar blocks are recognized as already committed.
        for request in requests.prefix(20) {
            let retry = try await reopened.append(request)
            #expect(retry.wasAlreadyCommitted)
        }
        #expect(try await reopened.lastPosition() == UInt64(all.count - 1))
        let report = try reopened.verify()
        #expect(report.isOK, "\(report.problems)")
        reopened.close()
    }
}
