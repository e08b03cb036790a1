import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import Testing

/// Appends made with `defersFlush`: this process builds on them at once; they reach the disk, and other readers and
/// writers, when the store is flushed (or lets its writer lock go, or closes), never before.
@Suite struct FileStoreDeferredFlushTests {
    static let options = FileEventStoreOptions(createIfMissing: true)

    static func deferred(_ stream: StreamID, expected: ExpectedVersion = .any, _ events: [ProposedEvent]) -> AppendRequest {
        var request = AppendRequest(stream: stream, expected: expected, events: events)
        request.defersFlush = true
        return request
    }

    @Test func `deferred appends are read back at once by their process, and by others once flushed`() async throws {
        let dir = TemporaryDirectory()
        let writer = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { writer.close() }
        var last: AppendResult?
        for k in 0..<20 {
            last = try await writer.append(Self.deferred("pet-1", expected: k == 0 ? .noStream : .exact(UInt64(k - 1)), events(1)))
            #expect(try await writer.streamVersion(of: "pet-1") == UInt64(k), "the next decision sees it")
        }
        #expect(last?.lastPosition == 19)
        try await writer.flush()
        let other = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
        defer { other.close() }
        #expect(try await other.streamVersion(of: "pet-1") == 19)
        #expect(try await other.readAll().map(\.position) == Array(0..<20))
        try await writer.flush()
        #expect(try writer.verify().isOK)
    }

    @Test func `another writer builds on deferred appends only once they are flushed`() async throws {
        let dir = TemporaryDirectory()
        let first = try FileEventStore.open(path: dir.path, options: Self.options)
        let second = try FileEventStore.open(path: dir.path, options: Self.options)
        defer {
            first.close()
            second.close()
        }
        try await first.append(Self.deferred("toy-1", expected: .noStream, events(3)))
        // The second store takes the writer lock only once the first lets it go, which flushes first: its
        // expectation holds on the three events, as it would on any committed ones.
        let after = try await second.append(AppendRequest(stream: "toy-1", expected: .exact(2), events: events(1)))
        #expect(after.firstPosition == 3)
        #expect(try await first.readAll().map(\.position) == [0, 1, 2, 3])
        #expect(try second.verify().isOK)
    }

    @Test func `closing a store flushes its deferred appends`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        for k in 0..<5 { try await store.append(Self.deferred(stream("cart-\(k)"), events(2))) }
        store.close()
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
        defer { reopened.close() }
        #expect(try await reopened.lastPosition() == 9)
        #expect(reopened.recovery == nil, "nothing to repair")
        #expect(try reopened.verify().isOK)
    }

    @Test func `deferred appends across segment seals are all durable and in order`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 7)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for k in 0..<30 { try await store.append(Self.deferred(stream("pet-\(k % 4)"), events(1 + k % 3))) }
        try await store.flush()
        let total = (0..<30).reduce(0) { $0 + 1 + $1 % 3 }
        let other = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
        defer { other.close() }
        #expect(try await other.readAll().map(\.position) == Array(0..<UInt64(total)))
        store.close()
        #expect(try other.verify().isOK)
    }

    @Test func `a flush with nothing deferred does nothing, and flushes again are harmless`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        try await store.flush()
        try await store.append(Self.deferred("pet-1", events(1)))
        try await store.flush()
        try await store.flush()
        #expect(try await store.lastPosition() == 0)
    }

    /// A power loss before the flush may leave any of the unflushed frames on disk and an earlier one not: a later
    /// frame then follows bad bytes. Its place in the run of unflushed frames tells recovery that this is one torn
    /// write, cut off, and not damage to acknowledged data, which would stop every append.
    @Test func `a power loss before the flush is a torn tail, cut off on open`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await store.append(to: "pet-1", events(2))
        let headBefore = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/head"))
        let firstUnflushed = try store.withState(writer: false) { $0.active!.endOffset }
        // Nothing flushes them meanwhile: the committer keeps the writer lock however long the test takes.
        store.writerLockHold = (linger: 3600, max: .seconds(3600))
        for _ in 0..<3 { try await store.append(Self.deferred("pet-1", events(1))) }
        // What the disk might hold: every unflushed frame but the first, and the head before them.
        let copy = TemporaryDirectory()
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: dir.path, toPath: copy.path)
        store.close()
        try headBefore.write(to: URL(fileURLWithPath: copy.path + "/head"))
        let segment = try FileHandle(forUpdating: URL(fileURLWithPath: copy.path + "/segments/00000000000000000000.seg"))
        try segment.seek(toOffset: firstUnflushed)
        segment.write(Data(count: 24))
        try segment.close()

        let reopened = try FileEventStore.open(path: copy.path, options: Self.options)
        defer { reopened.close() }
        #expect(reopened.recovery?.truncatedAt == firstUnflushed, "\(String(describing: reopened.recovery))")
        #expect(try await reopened.lastPosition() == 1)
        #expect(try await reopened.append(to: "pet-1", expected: .exact(1), events(1)).firstPosition == 2, "appends go on")
        #expect(try reopened.verify().isOK)
    }
}
