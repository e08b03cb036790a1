import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The checkpoint's streams kept in the mapped file: a store that starts from a checkpoint
/// answers for every stream as one that scans the segment, whatever bytes the stream ids hold, through appends after
/// the checkpoint, a second checkpoint written on top of the adopted one, and the seal that writes the `.sidx` from
/// both halves of the index.
@Suite struct ActiveCheckpointStreamsTests {
    /// Ids whose byte order is not the order `String` compares them in (canonically equivalent pairs, a prefix, ids
    /// past the BMP), so that an encoder and a bisect that disagreed on the order would lose some of them.
    static let ids: [String] = [
        "pet-e", "pet-ea", "pet-é", "pet-e\u{301}", "pet-\u{212B}", "pet-\u{00C5}", "pet-A\u{30A}", "pet-Ω", "pet-\u{2126}",
        "pet-z", "pet-\u{FF5A}", "pet-😀", "pet-👩‍👩‍👧", "pet-ſ", "pet-s", "pet-\u{10FFFD}", "pet-~x",
    ]

    static func options(checkpointInterval: Int = 7, maxSegmentEvents: Int = 200) -> FileEventStoreOptions {
        FileEventStoreOptions(
            createIfMissing: true, maxSegmentEvents: maxSegmentEvents, durability: .noSync, compactSealedSegments: false,
            checkpointInterval: checkpointInterval)
    }

    /// Every stream's version, events (position and version) forward and backward, the whole log, and the stream count.
    static func answers(_ store: FileEventStore, extra: [String] = []) async throws -> [String] {
        var out = try await store.readAll().map { "\($0.position) \($0.stream.rawValue.unicodeScalars.map { String($0.value, radix: 16) }) \($0.version) \($0.id)" }
        for s in ids + extra + ["none-1", "pet-", "pet-e\u{300}"] {
            let id = stream(s)
            let version = try await store.streamVersion(of: id)
            let forward = try await store.events(of: id).map { "\($0.position)@\($0.version)" }
            let backward = try await store.readAll(.stream(id), direction: .backward).map(\.position)
            out.append("\(Array(s.utf8)) at \(version.map(String.init) ?? "none"): \(forward) back \(backward)")
        }
        out.append("streams \(try store.stats().streams)")
        return out
    }

    /// `rounds` appends to each id in turn (one or two events each).
    static func fill(_ store: FileEventStore, rounds: Int, from n: inout Int) async throws {
        for r in 0..<rounds {
            for (k, s) in ids.enumerated() where (k + r) % 3 != 0 {
                let count = (k + r) % 4 == 0 ? 2 : 1
                try await store.append(to: stream(s), (0..<count).map { _ in
                    n += 1
                    return event("Fed", "{\"n\":\(n)}", id: uuid(n))
                })
            }
        }
    }

    /// Opens the store twice: from its checkpoint (checked to be taken up), and by a scan (the checkpoint file gone).
    static func openBoth(_ dir: TemporaryDirectory, options: FileEventStoreOptions) throws -> (checkpointed: FileEventStore, scanned: FileEventStore) {
        let path = dir.path + "/segments/" + (try FileManager.default.contentsOfDirectory(atPath: dir.path + "/segments").first { $0.hasSuffix(".ckpt") }!)
        let checkpointed = try FileEventStore.open(path: dir.path, options: options)
        #expect(try ActiveCheckpointTests.adoptedEvents(checkpointed) != nil, "the checkpoint is refused")
        try FileManager.default.removeItem(atPath: path)
        let scanned = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        #expect(try ActiveCheckpointTests.adoptedEvents(scanned) == nil)
        return (checkpointed, scanned)
    }

    @Test func `unicode stream ids are found in a checkpoint as by a scan, through appends, a second checkpoint and a seal`() async throws {
        let options = Self.options()
        var n = 0
        let dir = try await filledStore(options) { try await Self.fill($0, rounds: 4, from: &n) }

        // The checkpoint's own order is the bytes', and each id is found by its bytes.
        let fd = try FileDescriptor.open(dir.path + "/segments/00000000000000000000.seg", .readOnly)
        let checkpoint = try #require(ActiveCheckpoint.decode(
            try MappedFile(path: ActiveCheckpointTests.checkpointPath(dir)), firstPosition: 0, file: try fd.fileID()))
        var order: [[UInt8]] = []
        checkpoint.forEachStream { id, _ in order.append(Array(id.rawValue.utf8)) }
        #expect(order == order.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(order.count == Self.ids.count)
        for s in Self.ids { #expect(checkpoint.stream(stream(s)) != nil, "\(Array(s.utf8)) not found by bisecting") }

        var (checkpointed, scanned) = try Self.openBoth(dir, options: options)
        let first = try #require(try ActiveCheckpointTests.adoptedEvents(checkpointed))
        #expect(try await Self.answers(checkpointed) == (try await Self.answers(scanned)))

        // Appends after the checkpoint: to some of its streams (copied out) and to new ones, with expected versions.
        for s in Self.ids.prefix(5) {
            let v = try #require(try await checkpointed.streamVersion(of: stream(s)))
            try await checkpointed.append(to: stream(s), expected: .exact(v), [event(id: uuid(10_000 + n))])
            n += 1
        }
        try await checkpointed.append(to: stream("pet-e\u{300}"), expected: .noStream, [event(id: uuid(20_000))])
        try await Self.fill(checkpointed, rounds: 2, from: &n)
        #expect(try await Self.answers(checkpointed) == (try await Self.answers(scanned)))
        #expect(try checkpointed.verify().isOK)
        checkpointed.close()
        scanned.close()

        // A second checkpoint, written on top of the adopted one by the upkeep above, taken up in turn.
        (checkpointed, scanned) = try Self.openBoth(dir, options: options)
        #expect(try #require(try ActiveCheckpointTests.adoptedEvents(checkpointed)) > first)
        #expect(try await Self.answers(checkpointed) == (try await Self.answers(scanned)))

        // Filled until the segment seals: its `.sidx` is written from the checkpoint's streams and the recent ones.
        while try checkpointed.segmentNames().count < 2 { try await Self.fill(checkpointed, rounds: 1, from: &n) }
        #expect(try await Self.answers(checkpointed) == (try await Self.answers(scanned)))
        #expect(try checkpointed.verify().isOK)
        checkpointed.close()
        scanned.close()
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        let sidx = try #require(StreamIndexFile.load(
            path: dir.path + "/segments/00000000000000000000.sidx", segmentFirstPosition: 0,
            segmentEvents: try reopened.withState(writer: false) { $0.sealed[0].eventCount }))
        #expect(sidx.streamCount == Self.ids.count + 1)
        #expect(try reopened.verify().isOK)
    }

    /// A stream the checkpoint holds, and no event after it, is not decoded whole from the mapped file at every
    /// lookup: decoding its whole position list for its version (`streamVersion`, every append's expected-version
    /// check) and for every page of a read, where a dictionary or a stream index's directory entry for a sealed
    /// segment answers at once, takes 2.8 ms a `streamVersion` of a stream of 100,000 events against 3 µs once the
    /// stream is in memory (debug build), and makes paging through it quadratic in its length. Counted here, not
    /// timed: versions decode no stream, and paging decodes it once.
    @Test func `a long stream held in the checkpoint is not decoded whole at every lookup`() async throws {
        let options = FileEventStoreOptions(createIfMissing: true, durability: .noSync, checkpointInterval: 5_000)
        let dir = try await filledStore(options) { store in
            try await store.append(to: stream("cold-1"), events(3))
            for _ in 0..<5 { try await store.append(to: stream("hot-1"), events(1000)) }
        }
        let (checkpointed, scanned) = try Self.openBoth(dir, options: FileEventStoreOptions(checkpointInterval: 0))
        defer {
            checkpointed.close()
            scanned.close()
        }
        #expect(try ActiveCheckpointTests.adoptedEvents(checkpointed) == 5_003, "the checkpoint covers both streams whole")
        func decodes() throws -> Int { try checkpointed.withState(writer: false) { $0.active!.checkpointStreamDecodes } }
        for _ in 0..<20 { #expect(try await checkpointed.streamVersion(of: stream("hot-1")) == 4_999) }
        #expect(try decodes() == 0, "a version is read from the entry's head")
        for k in 0..<20 {
            let page = try await checkpointed.read(ReadRequest(source: .stream(stream("hot-1")), from: UInt64(k * 250), limit: 5))
            #expect(page.events.map(\.version) == Array(UInt64(k * 250)..<UInt64(k * 250 + 5)))
        }
        #expect(try decodes() == 1, "paging decodes the stream once")
        #expect(try await checkpointed.events(of: stream("cold-1")).map(\.version) == [0, 1, 2])
        #expect(try await checkpointed.events(of: stream("hot-1")).count == 5_000)
        #expect(try decodes() == 3, "one stream kept at a time")
        #expect(try await checkpointed.events(of: stream("hot-1")).map(\.id) == (try await scanned.events(of: stream("hot-1")).map(\.id)))
        #expect(try checkpointed.withState(writer: false) { $0.active!.recentStreams.isEmpty }, "still in the checkpoint only")
    }
}
