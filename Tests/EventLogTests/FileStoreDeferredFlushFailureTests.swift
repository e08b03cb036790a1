@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import Glibc
import PawtrailIO
import Testing

/// Deferred flushes when a segment rolls between two of them, when the flush fails, and when an append that is not
/// deferred answers from deferred state. Each roll case runs in a child process of its own.
@Suite(.serialized) struct FileStoreDeferredFlushFailureTests {
    static func deferred(_ stream: StreamID, _ events: [ProposedEvent]) -> AppendRequest {
        var request = AppendRequest(stream: stream, expected: .any, events: events)
        request.defersFlush = true
        return request
    }

    /// A deferred group that does not fit rolls to a new segment: the frames before it are flushed and sealed in,
    /// and the flush that follows covers the new segment's. A failed flush then cuts off only the new segment's
    /// frames, never the sealed segment (its footer, and the events the roll made visible to every reader).
    @Test func `a failed flush after a segment roll leaves the sealed segment whole`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(
                path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, compactSealedSegments: false))
            store.writerLockHold = (linger: 3600, max: .seconds(3600))
            _ = try await store.append(FileStoreDeferredFlushFailureTests.deferred("pet-1", events(3)))
            // 3 + 2 > 4: rolls before writing, so these two go to a new segment.
            _ = try await store.append(FileStoreDeferredFlushFailureTests.deferred("pet-2", events(2)))
            #expect(try store.segmentNames().count == 2)
            do {
                // The roll sealed the first segment (flushed) and moved the head: another process reads its events.
                let other = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
                #expect(try await other.readAll().map(\.position) == [0, 1, 2])
                other.close()
            }
            let restore = FileStoreHeadFailureTests.makeUnwritable(dir.path + "/" + LogFormat.headName)
            await #expect(throws: (any Error).self) { try await store.flush() }
            restore()
            store.close()
            do {
                let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
                defer { reopened.close() }
                #expect(try await reopened.readAll().map(\.position) == [0, 1, 2], "the sealed segment's events were read by others")
                #expect(try reopened.verify().isOK)
            } catch {
                Issue.record("the store no longer opens after a failed flush: \(error)")
            }
        }
    }

    /// The same roll, with the sealed segment compacted into a new file meanwhile: the appends whose flush failed
    /// (reported lost) are cut off the new segment, so the next writer never takes them up as committed.
    @Test func `appends whose flush failed after a segment roll are not taken up by the next writer`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4))
            store.writerLockHold = (linger: 3600, max: .seconds(3600))
            _ = try await store.append(FileStoreDeferredFlushFailureTests.deferred("pet-1", events(3)))
            _ = try await store.append(FileStoreDeferredFlushFailureTests.deferred("pet-2", events(2)))
            try store.compact()
            let restore = FileStoreHeadFailureTests.makeUnwritable(dir.path + "/" + LogFormat.headName)
            await #expect(throws: (any Error).self) { try await store.flush() }
            restore()
            store.close()
            let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
            defer { reopened.close() }
            #expect(try await reopened.readAll().map(\.position) == [0, 1, 2], "the appends whose flush failed were taken up")
        }
    }

    /// An append without `defersFlush` returns only once durable and visible to every reader (the `EventStore`
    /// contract), also when it is a retry of a deferred append not yet flushed, which this process's index answers
    /// as already committed: that answer waits for the flush.
    @Test func `an append that is not deferred returns durable even when it retries a deferred one`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        defer { store.close() }
        store.writerLockHold = (linger: 3600, max: .seconds(3600))
        let e = events(1)
        _ = try await store.append(Self.deferred("pet-1", e))
        let retry = try await store.append(AppendRequest(stream: "pet-1", expected: .any, events: e))
        #expect(retry.wasAlreadyCommitted)
        let other = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions())
        defer { other.close() }
        #expect(try await other.lastPosition() == 0, "a non-deferred append returned success, but another reader does not see it")
    }
}
