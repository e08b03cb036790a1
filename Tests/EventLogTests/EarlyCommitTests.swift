@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// A large append encoded while the committer plans it (``EarlyCommit``): the frame it stores is the one the
/// committer would have stored, and a guess the plan does not confirm is never used.
@Suite struct EarlyCommitTests {
    /// `count` events over `streams` streams, each stream's expectation exact (odd streams) or no stream (even ones),
    /// with JSON varied enough to lay out by columns and large enough to be compressed on two cores.
    private func bulk(_ count: Int, streams: Int = 37, first: UInt64 = 0) -> AppendRequest {
        var entries: [AppendRequest.Entry] = []
        for i in 0..<count {
            let data = "{\"order\":\"o-\(i)\",\"sku\":\"litter-\(i % 7)\",\"qty\":\(i % 3 + 1),\"note\":\"\(String(repeating: "back door ", count: 8))\"}"
            entries.append(.init(stream: stream("s-\(i % streams)"), event: ProposedEvent(type: "OrderPlaced", data: Array(data.utf8))))
        }
        let expectations = (0..<min(streams, count)).map { s in
            AppendRequest.Expectation(stream: stream("s-\(s)"), expected: first == 0 ? .noStream : .exact(first - 1))
        }
        return AppendRequest(entries: entries, expectations: expectations)
    }

    /// The versions the planner gives a fresh store's streams for ``bulk(_:streams:first:)``.
    private func plannedEvents(_ r: AppendRequest, streams: Int = 37, first: UInt64 = 0) -> [AppendPlanner.PlannedEvent] {
        r.entries.enumerated().map { i, e in AppendPlanner.PlannedEvent(stream: e.stream, version: first + UInt64(i / streams), event: e.event) }
    }

    @Test(arguments: [true, false])
    func `the early payload is stored exactly as the committer stores it`(columnar: Bool) throws {
        let r = bulk(4000)
        let early = try #require(PreparedCommit.prepare(
            r, sizeLimit: .max, underLoad: false, level: 3, dictionary: { nil }, compressors: CompressorPool(keep: 2), columnar: columnar,
            twoCores: true))
        let events = plannedEvents(r)
        #expect(early.matches(events))
        let payload = CommitCodec.encodeCommit(events)
        #expect(payload.count >= FrameIO.parallelThreshold)
        let stored = try FrameIO.storeCommit(
            payload, underLoad: false, compressor: ZstdCompressor(), level: 3, dictionary: { nil }, helper: ZstdCompressor(), columnar: columnar)
        #expect(early.payload == payload)
        #expect(early.stored.codec == stored.codec)
        #expect(early.stored.bytes == stored.bytes)
        #expect(early.columnar == columnar)
    }

    @Test func `the waited result is the work's, however often it is asked for`() {
        let early = EarlyCommit { PreparedCommit(versions: [7], payload: [1, 2], stored: .init(codec: .none, dictionaryID: 0, bytes: [1, 2], rawLength: 2)) }
        #expect(early.wait()?.versions == [7])
        #expect(early.wait()?.payload == [1, 2])
        #expect(EarlyCommit { nil }.wait() == nil)
    }

    /// The stored part of a planned group's only frame (between its header and its checksum).
    private func storedBytes(_ group: FileEventStore.PlannedGroup) throws -> [UInt8] {
        let bytes = try #require(group.write).bytes
        return Array(bytes[(4 + LogFormat.frameHeaderSize)..<(bytes.count - 4)])
    }

    @Test func `a guess the plan does not confirm is not used`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        defer { store.close() }
        _ = try await store.append(AppendRequest(stream: stream("other-1"), events: [.json("Noted", "{}")]))
        let r = try AppendPlanner.validated(bulk(4000))
        func plan(_ early: EarlyCommit?) throws -> FileEventStore.PlannedGroup {
            try store.stateLock.withLock { try store.planGroup([r], prepared: [nil], caughtUp: true, early: early) }
        }
        let serial = try storedBytes(try plan(nil))
        let right = try #require(PreparedCommit.prepare(
            r, sizeLimit: .max, underLoad: false, level: store.options.commitCompressionLevel, dictionary: { nil },
            compressors: CompressorPool(keep: 2), columnar: true, twoCores: true))
        #expect(try storedBytes(try plan(EarlyCommit { right })) == serial)
        // A confirmed guess is what the frame stores (marked here to tell it from the committer's own encoding).
        var marked = right
        marked.stored.bytes = [0xAB]
        let confirmed = marked
        #expect(try storedBytes(try plan(EarlyCommit { confirmed })) == [0xAB])
        // Other versions, or a layout the segment would not take: the committer encodes the append itself.
        var wrongVersions = right
        wrongVersions.versions[0] += 1
        wrongVersions.stored.bytes = [0xFF]
        let otherVersions = wrongVersions
        #expect(try storedBytes(try plan(EarlyCommit { otherVersions })) == serial)
        var wrongLayout = right
        wrongLayout.columnar = false
        wrongLayout.stored.bytes = [0xFF]
        let otherLayout = wrongLayout
        #expect(try storedBytes(try plan(EarlyCommit { otherLayout })) == serial)
    }

    @Test func `large appends encoded early read back; a wrong version fails as before and writes nothing`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let first = bulk(3000)
        let r1 = try await store.append(first)
        #expect(r1.firstPosition == 0 && r1.lastPosition == 2999)
        // Every stream now holds versions 0...80 (3000 events over 37 streams: some hold 81, some 82).
        await #expect(throws: EventStoreError.self) { try await store.append(bulk(3000, first: 81)) }
        #expect(try await store.lastPosition() == 2999)
        // A retry of the first append answers as it did, and writes nothing.
        let retry = try await store.append(first)
        #expect(retry.firstPosition == 0 && retry.lastPosition == 2999)
        store.close()
        let reopened = try FileEventStore.open(path: dir.path)
        defer { reopened.close() }
        var all: [RecordedEvent] = []
        try await reopened.forEachPage(.all) { page in
            all += page
            return true
        }
        #expect(all.count == 3000)
        #expect(zip(all, plannedEvents(first)).allSatisfy { $0.stream == $1.stream && $0.version == $1.version && $0.data == $1.event.data })
        #expect(try reopened.verify().isOK)
    }
}
