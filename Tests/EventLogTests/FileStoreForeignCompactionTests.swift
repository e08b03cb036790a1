import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import Testing

/// A long-lived store whose sealed segments another process compacts reads the new files from the next roll on,
/// letting the old ones go (rather than keeping every old file open, and its disk space, until it closes).
@Suite struct FileStoreForeignCompactionTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 5, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)

    static func append(_ dir: TemporaryDirectory, _ range: Range<Int>) async throws {
        let writer = try FileEventStore.open(path: dir.path, options: options)
        for k in range { _ = try await writer.append(to: stream("pet-\(k % 3)"), [.json("Fed", "{\"k\":\(k)}")]) }
        writer.close()
    }

    /// The files of `dir` this process holds open that have been replaced or removed.
    static func heldReplacedFiles(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }.filter { $0.hasPrefix(dir.path) && $0.hasSuffix("(deleted)") }
    }

    @Test func `a reader takes up segments another store compacted at the next roll`() async throws {
        let dir = TemporaryDirectory()
        try await Self.append(dir, 0..<12)
        let reader = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reader.close() }
        #expect(try reader.stats().segments == 3)
        #expect(try reader.stats().compactedSegments == 0)

        let compactor = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(try compactor.compact().count == 2)
        compactor.close()
        #expect(try Self.heldReplacedFiles(dir).count == 2, "the reader still reads the files it opened")
        // The next roll: the reader lists the segments again.
        try await Self.append(dir, 12..<16)
        let stats = try reader.stats()
        #expect(stats.segments == 4)
        #expect(stats.compactedSegments == 2, "\(stats)")
        #expect(try await reader.readAll().map(\.position) == Array(0..<16))
        #expect(try Self.heldReplacedFiles(dir) == [])
    }
}
