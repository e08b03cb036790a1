import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// Damage to the store directory itself (files missing or renamed) is refused with a clear error.
@Suite struct StoreDirectoryDamageTests {
    private func store(_ dir: TemporaryDirectory, events: Int, maxSegmentEvents: Int = 131_072) async throws {
        let s = try FileEventStore.open(
            path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: maxSegmentEvents, compactSealedSegments: false))
        for i in 0..<events { _ = try await s.append(AppendRequest(stream: stream("pet-\(i % 3)"), events: [.json("W", "{}")])) }
        s.close()
    }

    @Test func `a missing manifest is never recreated over existing segments`() async throws {
        let dir = TemporaryDirectory()
        try await store(dir, events: 3)
        try FileManager.default.removeItem(atPath: dir.path + "/pawtrail.store")
        #expect(throws: EventStoreError.self) {
            _ = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/pawtrail.store"))
    }

    @Test func `a sealed segment whose name disagrees with its header is damage`() async throws {
        let dir = TemporaryDirectory()
        try await store(dir, events: 6, maxSegmentEvents: 2)
        let segments = dir.path + "/segments/"
        try FileManager.default.moveItem(atPath: segments + "00000000000000000000.seg", toPath: segments + "00000000000000000001.seg")
        #expect(throws: EventStoreError.self) { _ = try FileEventStore.open(path: dir.path) }
    }
}
