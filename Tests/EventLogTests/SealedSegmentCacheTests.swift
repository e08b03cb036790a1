import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The sealed segments' cache (``SealedSegmentCache``) spares an open every segment's trailer, header, footer and
/// index-file headers. It is a cache: every answer is the one the files give, and whatever it holds that no longer
/// matches the files (a compacted segment, an index file rebuilt, a copy of the store, a damaged cache) is passed
/// over and made again.
@Suite struct SealedSegmentCacheTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)

    static func cachePath(_ dir: String) -> String { dir + "/segments/" + SealedSegmentCache.fileName }

    /// Every event in order, and each stream's version: what a store answers.
    static func answers(_ store: FileEventStore) async throws -> [String] {
        var out = try await store.readAll().map { "\($0.position) \($0.stream) \($0.version) \($0.id) \($0.recordedAt)" }
        for s in (0..<9).map({ "busy-\($0)" }) + ["lonely-3", "lonely-39"] {
            let version = try await store.streamVersion(of: stream(s))
            out.append("\(s) at \(version.map(String.init) ?? "none"): \(try await store.events(of: stream(s)).map(\.position))")
        }
        return out
    }

    /// Opens the store, returning its answers and how many sealed segments came from the cache.
    static func open(_ path: String) async throws -> (answers: [String], fromCache: Int, sealed: Int) {
        let store = try FileEventStore.open(path: path, options: options)
        defer { store.close() }
        let (hits, sealed) = try store.withState(writer: false) { ($0.sealedFromCache, $0.sealed.count) }
        #expect(try store.verify().isOK)
        return (try await answers(store), hits, sealed)
    }

    static func filled() async throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: options)
        _ = try await FileStoreIndexRunTests.fill(store)
        store.close()
        return dir
    }

    @Test func `a second open takes every sealed segment from the cache and answers the same`() async throws {
        let dir = try await Self.filled()
        let first = try await Self.open(dir.path)
        #expect(first.sealed >= 15)
        #expect(FileManager.default.fileExists(atPath: Self.cachePath(dir.path)))
        let second = try await Self.open(dir.path)
        #expect(second.fromCache == second.sealed)
        #expect(second.answers == first.answers)
    }

    @Test func `a compacted segment is read from its new file`() async throws {
        let dir = try await Self.filled()
        let before = try await Self.open(dir.path)
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        let compacted = try store.compact()
        store.close()
        #expect(!compacted.isEmpty)
        let after = try await Self.open(dir.path)
        #expect(after.answers == before.answers)
        #expect(after.fromCache <= after.sealed - compacted.count, "a compacted file has a new identity")
        let again = try await Self.open(dir.path)
        #expect(again.fromCache == again.sealed, "and the cache is made again")
        #expect(again.answers == before.answers)
    }

    @Test func `a missing index file is rebuilt at open, as without the cache`() async throws {
        let dir = try await Self.filled()
        let before = try await Self.open(dir.path)
        let eidx = dir.path + "/segments/" + LogFormat.segmentName(firstPosition: 12).dropLast(4) + ".eidx"
        try FileSystem.removeFile(eidx)
        let after = try await Self.open(dir.path)
        #expect(FileManager.default.fileExists(atPath: eidx))
        #expect(after.fromCache == after.sealed - 1)
        #expect(after.answers == before.answers)
    }

    @Test func `a damaged or foreign cache is passed over`() async throws {
        let dir = try await Self.filled()
        let before = try await Self.open(dir.path)
        try FileStoreIndexRunTests.flipLastByte(Self.cachePath(dir.path))
        let damaged = try await Self.open(dir.path)
        #expect(damaged.fromCache == 0)
        #expect(damaged.answers == before.answers)
        // A copy of the store: the cache comes along, but every file is another.
        let copy = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: dir.path, toPath: copy.path)
        let copied = try await Self.open(copy.path)
        #expect(copied.fromCache == 0)
        #expect(copied.answers == before.answers)
        #expect(try await Self.open(copy.path).fromCache == copied.sealed)
    }

    @Test func `a cache round-trips its entries and refuses what it did not write`() throws {
        var cache = SealedSegmentCache()
        cache.entries["00000000000000000006.seg"] = .init(
            status: FileStatus(id: FileID(device: 1, inode: 2), size: 300, modified: 4), streamIndexInode: 5, idIndexInode: 6,
            header: [UInt8](repeating: 7, count: LogFormat.segmentHeaderSize), footerOffset: 200, footer: [1, 2, 3])
        let bytes = cache.encoded()
        #expect(try SealedSegmentCache.decode(bytes).entries == cache.entries)
        for cut in [0, 8, 19, bytes.count - 1] { #expect(throws: (any Error).self) { try SealedSegmentCache.decode(Array(bytes.prefix(cut))) } }
        var flipped = bytes
        flipped[30] ^= 1
        #expect(throws: (any Error).self) { try SealedSegmentCache.decode(flipped) }
    }
}
