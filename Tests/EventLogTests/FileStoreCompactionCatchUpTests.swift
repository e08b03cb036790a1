@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Upkeep after a burst of appends.
@Suite struct FileStoreCompactionCatchUpTests {
    /// Segments sealed while a compaction pass runs are compacted by the time `close` returns, not left for the
    /// next append (found when a bulk import's last sealed segment stayed uncompacted after close: the background
    /// pass chose its segments when it started). Sealing here outpaces compaction, so passes overlap seals.
    @Test func `every segment sealed before close is compacted when it returns`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 1500, durability: .noSync)
        for round in 0..<3 {
            let store = try FileEventStore.open(path: dir.path, options: options)
            for batch in 0..<12 {
                let events = (0..<500).map { i in
                    ProposedEvent(type: "Noted", data: Array("{\"round\":\(round),\"batch\":\(batch),\"i\":\(i),\"pad\":\"\(String(repeating: "x", count: 200))\"}".utf8))
                }
                _ = try await store.append(AppendRequest(stream: stream("burst-\(batch % 7)"), events: events))
            }
            store.close()
            let stats = try store.stats()
            #expect(stats.segments >= 4 * (round + 1))
            #expect(stats.compactedSegments == stats.segments - 1, "round \(round): \(stats.compactedSegments) of \(stats.segments - 1) sealed segments compacted")
        }
    }
}
