@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import Glibc
import PawtrailIO
import Testing

/// A group written and flushed whose head cannot be written is not committed: it is cut off, so neither this
/// process nor another adopts it later, and appends that did not depend on it keep their outcomes.
/// Exit tests: each points its own process's head descriptor at /dev/full.
@Suite(.serialized) struct FileStoreHeadFailureTests {
    /// Points every descriptor of this process open on `path` at /dev/full: writes fail with ENOSPC. Returns a
    /// closure that points them back at a read-write open of `path`.
    static func makeUnwritable(_ path: String) -> @Sendable () -> Void {
        var fds: [Int32] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let n = Int32(name), let dest = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                dest == path
            else { continue }
            fds.append(n)
        }
        precondition(!fds.isEmpty, "no descriptor open on \(path)")
        let full = Glibc.open("/dev/full", O_RDWR)
        for fd in fds { precondition(dup2(full, fd) == fd) }
        close(full)
        let all = fds
        return {
            let rw = Glibc.open(path, O_RDWR)
            for fd in all { precondition(dup2(rw, fd) == fd) }
            close(rw)
        }
    }

    /// `count` random bytes, fast.
    static func randomBytes(_ count: Int) -> [UInt8] {
        let h = FileHandle(forReadingAtPath: "/dev/urandom")!
        return [UInt8](h.readData(ofLength: count))
    }

    /// Runs `requests` as one group behind a trigger append (held back by taking the writer lock from outside).
    /// The trigger's group commits normally, so the committer keeps the writer lock and plans the next group
    /// without reading the files again; once that group is written and flushed, and before its head is written,
    /// the head file is made unwritable (on the committer thread, through the store's test hook). So the group's
    /// write and flush succeed and `state.publish` (writeHead) fails. Returns the outcomes (the head is writable
    /// again by then).
    static func runGroupFailingPublish(_ store: FileEventStore, _ dir: String, _ requests: [AppendRequest]) async throws -> [Result<AppendResult, any Error>] {
        let lock = try FileDescriptor.open(dir + "/" + LogFormat.lockName, .readWriteCreate)
        _ = try lock.lockExclusive()
        let head = dir + "/" + LogFormat.headName
        // The second group (the trigger's is the first) finds the head unwritable when it is about to publish.
        let restore = RestoreBox()
        var groups = 0
        store.beforePublishingGroup = {
            groups += 1
            if groups == 2 { restore.set(FileStoreHeadFailureTests.makeUnwritable(head)) }
        }
        let trigger = Task { try await store.append(to: "trigger-1", [event()]) }
        try await Task.sleep(for: .milliseconds(300))
        var tasks: [Task<AppendResult, any Error>] = []
        for r in requests {
            tasks.append(Task { try await store.append(r) })
            try await Task.sleep(for: .milliseconds(500))
        }
        try lock.unlock()
        _ = try await trigger.value
        var results: [Result<AppendResult, any Error>] = []
        for t in tasks { results.append(await t.result) }
        store.beforePublishingGroup = nil
        restore.run()
        return results
    }

    /// The closure that makes the head writable again, handed over from the committer thread.
    final class RestoreBox: @unchecked Sendable {
        private let lock = NSLock()
        private var restore: (@Sendable () -> Void)?

        func set(_ r: @escaping @Sendable () -> Void) { lock.withLock { restore = r } }
        func run() { lock.withLock { restore }?() }
    }

    /// 20 events of 1 MB of random bytes each (the largest an event may be), for a write that takes a while.
    static func bigEvents(firstID: Int) -> [ProposedEvent] {
        (0..<20).map { i in ProposedEvent(id: uuid(firstID + i), type: "Big", data: randomBytes(1_000_000)) }
    }

    /// An append refused on its own (its stream's version comes from the files) keeps that outcome when making
    /// room for the group fails, though an earlier append of the group named its stream in an expectation without
    /// writing to it (the group's overlay holds only what an append writes, not a stream it merely expects).
    @Test func `an append refused on its own is not failed because an earlier append of the group only expected its stream`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .sync))
            _ = try await store.append(AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(1))]))
            try await store.append(to: "filler-1", [FileStoreGroupWriteFailureTests.random(count: 40_000)])
            let segment = dir.path + "/segments/" + (try store.segmentNames().last!)
            let size = try FileDescriptor.open(segment, .readOnly).size()
            FileStoreGroupWriteFailureTests.capFileSize(at: size)
            // Writes new-1, and expects order-1 at version 0 (which it is, from the files); writes nothing there.
            let writing = AppendRequest(
                entries: [.init(stream: "new-1", event: FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 30_000))],
                expectations: [.init(stream: "order-1", expected: .exact(0))])
            // Refused on its own: order-1 exists in the files, whatever the group does.
            let conflicting = AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(2))])
            let results = try await GroupCommitHarness.runAsOneGroup(store, directory: dir.path, [writing, conflicting])
            guard case .failure = results[0] else {
                Issue.record("making room did not fail: \(results[0])")
                return
            }
            GroupCommitHarness.expectRefusedOnItsOwn(results[1])
            store.close()
        }
    }

    /// The group is written and flushed, then moving the head fails. The append is reported failed; this process,
    /// as after a failed write, refuses further appends rather than adopt it, and nor does another store opened
    /// on the directory afterwards (which recovers as the writer).
    @Test func `an append reported failed because the head could not be written is never committed`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .sync))
            try await store.append(to: "warmup-1", [event()])
            let a = AppendRequest(stream: "order-1", expected: .noStream, events: FileStoreHeadFailureTests.bigEvents(firstID: 100))
            let results = try await FileStoreHeadFailureTests.runGroupFailingPublish(store, dir.path, [a])
            guard case .failure(let error) = results[0] else {
                Issue.record("moving the head did not fail: \(results[0])")
                return
            }
            await #expect(throws: EventStoreError.self) { try await store.append(to: "other-1", [event("Small", "{}", id: uuid(2))]) }
            #expect(try await store.streamVersion(of: "order-1") == nil)
            #expect(try await store.readAll().map(\.stream) == ["warmup-1", "trigger-1"])
            store.close()
            let other = try FileEventStore.open(path: dir.path)
            try await other.append(to: "other-1", [event("Small", "{}", id: uuid(2))])
            let version = try await other.streamVersion(of: "order-1")
            let next = try await other.events(of: "other-1").map(\.position)
            #expect(version == nil, "reported \(error), yet order-1 is at version \(String(describing: version)); other-1 went to \(next)")
            #expect(next == [2])
            other.close()
        }
    }

    /// A failure moving the head fails only the appends that depend on the write, not one refused on its own.
    @Test func `a head failure does not turn an append refused on its own into an I-O error`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .sync))
            _ = try await store.append(AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(1))]))
            let writing = AppendRequest(stream: "new-1", expected: .any, events: FileStoreHeadFailureTests.bigEvents(firstID: 100))
            let conflicting = AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(2))])
            let results = try await FileStoreHeadFailureTests.runGroupFailingPublish(store, dir.path, [writing, conflicting])
            guard case .failure = results[0] else {
                Issue.record("moving the head did not fail: \(results[0])")
                return
            }
            GroupCommitHarness.expectRefusedOnItsOwn(results[1])
            store.close()
        }
    }
}
