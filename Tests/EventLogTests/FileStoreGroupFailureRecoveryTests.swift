@testable import EventLog
@testable import EventLogFile
import Foundation
import Glibc
import PawtrailIO
import Testing

/// Failures inside a group commit, seen from outside (from review): outcomes that came from the group's overlay
/// fail with its write, and a store whose roll or room-making failed part-way goes on consistently.
@Suite(.serialized) struct FileStoreGroupFailureRecoveryTests {
    /// Every append whose outcome came from the overlay fails with the write: an empty append reporting the
    /// version, a check-only expectation, a retry of an earlier group's append whose reported versions come
    /// from the overlay (checkRetry's currentVersion), and an idempotency conflict on an id in `written`.
    @Test func `overlay-dependent outcomes fail with the write`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .noSync))
            let earlier = AppendRequest(
                entries: [.init(stream: "x-1", event: event("Small", "{}", id: uuid(5)))],
                expectations: [.init(stream: "x-1", expected: .noStream), .init(stream: "order-1", expected: .any)])
            _ = try await store.append(earlier)
            FileStoreGroupWriteFailureTests.capFileSize(at: 32 << 10)
            let a = AppendRequest(stream: "order-1", expected: .noStream, events: [FileStoreGroupWriteFailureTests.random(id: uuid(1), count: 64 << 10)])
            let empty = AppendRequest(entries: [], expectations: [.init(stream: "order-1", expected: .any)])
            let checkOnly = AppendRequest(
                entries: [.init(stream: "y-1", event: event("Small", "{}", id: uuid(6)))],
                expectations: [.init(stream: "order-1", expected: .noStream, checkOnly: true)])
            let conflict = AppendRequest(stream: "z-1", expected: .any, events: [FileStoreGroupWriteFailureTests.random(id: uuid(1), count: 64 << 10)])
            let results = try await GroupCommitHarness.runAsOneGroup(store, directory: dir.path, [a, empty, earlier, checkOnly, conflict])
            for (i, r) in results.enumerated() {
                switch r {
                case .success(let s): Issue.record("append \(i) succeeded: \(s)")
                case .failure(let e as EventStoreError):
                    if case .io = e {} else { Issue.record("append \(i) failed with \(e)") }
                case .failure(let e): Issue.record("append \(i) failed with \(e)")
                }
            }
            store.close()
        }
    }
}

@Suite(.serialized) struct Review3RollFailureTests {
    /// No new descriptor can be opened in this process (the limit at the lowest free one). Returns the undo.
    static func capDescriptors() -> () -> Void {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let old = limit
        let lowest = dup(0)
        close(lowest)
        limit.rlim_cur = rlim_t(lowest)
        precondition(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        return {
            var o = old
            precondition(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &o) == 0)
        }
    }

    /// prepareAppend seals the active segment, then cannot create the next one (EMFILE): the append fails, the
    /// lock is released; once descriptors are available again the store goes on consistently.
    @Test func `a roll that seals but cannot create the next segment leaves a consistent store`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let options = FileEventStoreOptions(createIfMissing: true, segmentSize: 16 << 10, durability: .noSync)
            let store = try FileEventStore.open(path: dir.path, options: options)
            try await store.append(to: "a-1", [FileStoreGroupWriteFailureTests.random(id: uuid(1), count: 10_000)])
            let undo = Review3RollFailureTests.capDescriptors()
            let failed = await Task { try await store.append(to: "b-1", [FileStoreGroupWriteFailureTests.random(id: uuid(2), count: 10_000)]) }.result
            let again = await Task { try await store.append(to: "b-1", [FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 10_000)]) }.result
            undo()
            guard case .failure(let e) = failed else {
                Issue.record("the roll did not fail: \(failed)")
                return
            }
            try! "first failure: \(e); second: \(again)\n".write(toFile: "/tmp/review3-roll.txt", atomically: true, encoding: .utf8)
            let r = try await store.append(to: "b-1", expected: .noStream, [FileStoreGroupWriteFailureTests.random(id: uuid(4), count: 10_000)])
            #expect(r.firstPosition == 1)
            try await store.append(to: "c-1", [event()])
            let all = try await store.readAll()
            #expect(all.map(\.position) == Array(0..<UInt64(all.count)))
            #expect(all.map(\.id).prefix(2) == [uuid(1), uuid(4)])
            let v1 = try store.verify()
            let fh = FileHandle(forWritingAtPath: "/tmp/review3-roll.txt")!; fh.seekToEndOfFile(); fh.write("segments: \(try store.segmentNames()) recoveries: \(store.recoveries) verify1: \(v1)\n".data(using: .utf8)!)
            store.close()
            do {
            let other = try FileEventStore.open(path: dir.path, options: options)
            try await other.append(to: "d-1", [event()])
            let all2 = try await other.readAll()
            #expect(all2.map(\.position) == Array(0..<UInt64(all2.count)))
            let v = try other.verify()
            fh.write("verify2: \(v)\n".data(using: .utf8)!)
            other.close()
            } catch { fh.write("error: \(error)\n".data(using: .utf8)!); throw error }
        }
    }
}

@Suite(.serialized) struct Review3PreallocFailureTests {
    @Test func `after a failure making room the next group goes on consistently`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .sync))
            try await store.append(to: "order-1", [event("Small", "{}", id: uuid(1))])
            try await store.append(to: "filler-1", [FileStoreGroupWriteFailureTests.random(count: 40_000)])
            let segment = dir.path + "/segments/" + (try store.segmentNames().last!)
            let size = try FileDescriptor.open(segment, .readOnly).size()
            FileStoreGroupWriteFailureTests.capFileSize(at: size + 1000)
            let failed = await Task { try await store.append(to: "new-1", [FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 30_000)]) }.result
            FileStoreGroupWriteFailureTests.capFileSize(at: UInt64.max)
            guard case .failure = failed else { Issue.record("did not fail: \(failed)"); return }
            try await store.append(to: "new-1", expected: .noStream, [FileStoreGroupWriteFailureTests.random(id: uuid(4), count: 30_000)])
            let all = try await store.readAll()
            #expect(all.map(\.position) == [0, 1, 2])
            #expect(all.map(\.id).last == uuid(4))
            #expect(try store.verify().problems.isEmpty)
            store.close()
            let other = try FileEventStore.open(path: dir.path)
            #expect(other.recoveries.isEmpty)
            try await other.append(to: "x-1", [event()])
            #expect(try await other.readAll().map(\.position) == [0, 1, 2, 3])
            other.close()
        }
    }
}
