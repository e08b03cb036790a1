@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// A columnar block the compactor writes is one its reader accepts, however much larger than its rows the
/// columnar layout is.
@Suite struct ColumnarBlockLengthTests {
    /// Data whose every event has a shape of its own (its key) and the most places a shape holds, each a one-digit
    /// integer: the shape table takes more bytes than the rows do.
    private func sampled(_ range: Range<Int>) -> [ProposedEvent] {
        let zeros = Array(repeating: "0", count: ColumnarPayload.maxHolesPerShape).joined(separator: ",")
        return range.map { i in .json("Sampled", #"{"k\#(i)":[\#(zeros)]}"#) }
    }

    @Test func `a compacted block of events with shapes of their own reads back`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(
            path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 1000, compactSealedSegments: false))
        var written: [ProposedEvent] = []
        for first in stride(from: 0, to: 1100, by: 100) {
            let batch = sampled(first..<(first + 100))
            written += batch
            try await store.append(to: stream("sensor-\(first)"), batch)
        }
        #expect(try !store.compact().isEmpty)
        let all = try await store.readAll()
        #expect(all.map(\.id) == written.map(\.id))
        #expect(all.map(\.data) == written.map(\.data))
        let report = try store.verify()
        #expect(report.isOK, "\(report.problems)")
        store.close()
    }
}
