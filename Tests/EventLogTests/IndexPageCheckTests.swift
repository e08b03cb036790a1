import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// Index files are checked page by page, as lookups read them: a lookup costs what it reads of the indexes, not their
/// size, and a damaged page is found by the lookup that reaches it, which then rebuilds the index from the segment
/// and answers as if it had always been sound.
@Suite struct IndexPageCheckTests {
    /// Segments of 3,000 events, each to its own stream: each sealed segment's `.sidx` and `.eidx` span several pages.
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 3_000, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)

    static func fill(_ store: FileEventStore) async throws {
        for batch in 0..<7 {
            let request = AppendRequest(entries: (0..<1_000).map { i in
                let n = batch * 1_000 + i
                return AppendRequest.Entry(stream: stream("pet-\(n)"), event: event("Fed", "{\"n\":\(n)}", id: uuid(n + 1)))
            })
            _ = try await store.append(request)
        }
    }

    static func pages(_ store: FileEventStore, _ segment: Int) throws -> (streams: (checked: Int, total: Int)?, ids: (checked: Int, total: Int)?) {
        try store.withState(writer: false) { s in
            let seg = s.sealed[segment]
            return (seg.checkedStreams?.pages.map { ($0.checkedPageCount, $0.pageCount) }, seg.ids?.pages.map { ($0.checkedPageCount, $0.pageCount) })
        }
    }

    @Test func `a lookup checks the few pages it reads, not the whole index`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        #expect(try await store.streamVersion(of: stream("pet-700")) == 0)
        let streams = try #require(try Self.pages(store, 0).streams)
        #expect(streams.total >= 12, "the index spans \(streams.total) pages")
        #expect(streams.checked <= 4, "the lookup checked \(streams.checked) of \(streams.total) pages")
        // A new id is looked up in every sealed segment's id index, a bucket's page in each. A fixed id: a random one
        // whose probe runs over a page boundary would read one page more on some runs.
        try await store.append(to: stream("pet-new"), [event(id: UUID(uuidString: "7e57ab1e-0000-4000-8000-000000000001")!)])
        let ids = try #require(try Self.pages(store, 0).ids)
        #expect(ids.total >= 4 && ids.checked <= 2, "the id lookup checked \(ids.checked) of \(ids.total) pages")
    }

    /// Flips a byte in the middle of a file, inside the pages its body spans (not its header, nor its page table).
    static func damage(_ path: String, at fraction: Double) throws {
        let fd = try FileDescriptor.open(path, .readWrite)
        let offset = UInt64(Double(try fd.size()) * fraction)
        var byte = try fd.read(at: offset, count: 1)
        byte[0] ^= 0x10
        try fd.write(byte, at: offset)
    }

    @Test func `a damaged page of a stream index is found by the lookup that reads it and rebuilt`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        let sidx = dir.path + "/segments/00000000000000000000.sidx"
        try Self.damage(sidx, at: 0.3)
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        // Every stream of the first segment answers right, the damaged page's included.
        for n in stride(from: 0, to: 3_000, by: 7) {
            #expect(try await store.streamVersion(of: stream("pet-\(n)")) == 0, "pet-\(n)")
            #expect(try await store.events(of: stream("pet-\(n)")).map(\.id) == [uuid(n + 1)])
        }
        #expect(try store.verify().isOK, "the rebuilt index was saved")
    }

    @Test func `a damaged page of an id index is found by the append that reads it and rebuilt`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        let eidx = dir.path + "/segments/00000000000000000000.eidx"
        try Self.damage(eidx, at: 0.5)
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        // Retries of every event of the first segment find their originals, whatever page holds them.
        for n in stride(from: 0, to: 3_000, by: 3) {
            let retry = try await store.append(to: stream("pet-\(n)"), [event("Fed", "{\"n\":\(n)}", id: uuid(n + 1))])
            #expect(retry.wasAlreadyCommitted && retry.firstPosition == UInt64(n), "event \(n)")
        }
        #expect(try await store.lastPosition() == 6_999)
        #expect(try store.verify().isOK)
    }
}
