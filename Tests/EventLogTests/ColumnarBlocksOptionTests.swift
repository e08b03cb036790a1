@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// `FileEventStoreOptions.columnarBlocks` decides the layout of every compacted block, whether the writer's
/// background upkeep or `compact()` writes it.
@Suite struct ColumnarBlocksOptionTests {
    private func blockCodecs(_ path: String) throws -> Set<String> {
        let store = try FileEventStore.open(path: path, options: FileEventStoreOptions(compactSealedSegments: false))
        defer { store.close() }
        var codecs: Set<String> = []
        for name in try store.segmentNames() {
            for f in try store.inspect(segment: name).frames where f.kind == "block" {
                codecs.insert(f.codec)
            }
        }
        return codecs
    }

    private func fill(_ store: FileEventStore) async throws {
        for i in 0..<12 {
            let events = (0..<10).map { j in
                event("Weighed", #"{"petId":"\#(UUID().uuidString.lowercased())","grams":\#(i * 10 + j),"at":"2026-06-01T00:00:\#(String(format: "%02d", j)).000000Z"}"#)
            }
            _ = try await store.append(to: stream("pet-\(i % 3)"), events)
        }
    }

    @Test(arguments: [true, false])
    func `the background upkeep lays blocks out as the option says`(columnar: Bool) async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(
            path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 40, columnarBlocks: columnar))
        try await fill(store)
        // Closing waits for the background upkeep the appends started.
        store.close()
        #expect(try blockCodecs(dir.path) == [columnar ? "columns+zstd by groups" : "zstd"])
    }

    @Test(arguments: [true, false])
    func `compact lays blocks out as the option says`(columnar: Bool) async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(
            path: dir.path,
            options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 40, compactSealedSegments: false, columnarBlocks: columnar))
        try await fill(store)
        #expect(try !store.compact().isEmpty)
        store.close()
        #expect(try blockCodecs(dir.path) == [columnar ? "columns+zstd by groups" : "zstd"])
    }
}
