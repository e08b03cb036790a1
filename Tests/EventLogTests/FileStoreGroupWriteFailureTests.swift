@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import Glibc
import PawtrailIO
import Testing

/// Group commits whose write, or the room made for it, fails: only the appends that depend on the write fail, and
/// none is told it committed. Exit tests: each caps its own process's file size.
@Suite(.serialized) struct FileStoreGroupWriteFailureTests {
    /// Writes past `bytes` into any file now fail with EFBIG (SIGXFSZ ignored), in this process only.
    static func capFileSize(at bytes: UInt64) {
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        limit.rlim_cur = rlim_t(bytes)
        precondition(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)
    }

    /// An event of `count` random (incompressible) bytes.
    static func random(id: UUID = UUID(), count: Int) -> ProposedEvent {
        var g = SystemRandomNumberGenerator()
        return ProposedEvent(id: id, type: "Big", data: (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) })
    }

    /// The write of the group fails: the append that wrote fails, and so does its retry in the same group (judged
    /// already committed from the group's overlay), which must not be left a success: a phantom commit.
    @Test func `a retry in the group of an append whose write fails is not reported committed`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .noSync))
            try await store.append(to: "warmup-1", [event()])
            FileStoreGroupWriteFailureTests.capFileSize(at: 32 << 10)
            let a = AppendRequest(stream: "order-1", expected: .any, events: [FileStoreGroupWriteFailureTests.random(id: uuid(1), count: 64 << 10)])
            let results = try await GroupCommitHarness.runAsOneGroup(store, directory: dir.path, [a, a])
            let all = try await store.readAll()
            #expect(all.filter { $0.stream == "order-1" }.isEmpty)
            guard case .failure = results[0] else {
                Issue.record("the write did not fail: \(results[0])")
                return
            }
            if case .success(let s) = results[1] {
                Issue.record("the retry succeeded (\(s)), but the log holds \(all.map(\.stream))")
            }
            store.close()
        }
    }

    /// The write of the group fails: an append refused in planning only because of the failed append's versions
    /// in the overlay is told the stream is at a version it never reached.
    @Test func `an append refused against a failed write's versions is not told they exist`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .noSync))
            try await store.append(to: "warmup-1", [event()])
            FileStoreGroupWriteFailureTests.capFileSize(at: 32 << 10)
            let a = AppendRequest(stream: "order-1", expected: .noStream, events: [FileStoreGroupWriteFailureTests.random(id: uuid(1), count: 64 << 10)])
            let b = AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(2))])
            let results = try await GroupCommitHarness.runAsOneGroup(store, directory: dir.path, [a, b])
            #expect(try await store.streamVersion(of: "order-1") == nil)
            guard case .failure = results[0] else {
                Issue.record("the write did not fail: \(results[0])")
                return
            }
            if case .failure(let e as EventStoreError) = results[1], let (_, _, actual) = e.conflict {
                #expect(actual == nil, "told order-1 is at version \(String(describing: actual)), but it holds no events")
            }
            store.close()
        }
    }

    /// Making room for the group fails (the zeros written ahead of the data): nothing of the group is written, so
    /// an idempotent retry of an append committed earlier, and an append refused for its expected version, keep
    /// their own outcomes, as they do when the write itself fails.
    @Test func `a failure making room for the group fails only the appends that write`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .sync))
            let committed = AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(1))])
            _ = try await store.append(committed)
            // Fill 40 KB of the 64 KiB written ahead, then cap the files at their size: the next write that
            // needs room past it makes `prepareAppend` write zeros ahead, which fails.
            try await store.append(to: "filler-1", [FileStoreGroupWriteFailureTests.random(count: 40_000)])
            let segment = dir.path + "/segments/" + (try store.segmentNames().last!)
            let size = try FileDescriptor.open(segment, .readOnly).size()
            FileStoreGroupWriteFailureTests.capFileSize(at: size)
            let conflicting = AppendRequest(stream: "order-1", expected: .noStream, events: [event("Small", "{}", id: uuid(2))])
            let writing = AppendRequest(stream: "new-1", expected: .any, events: [FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 30_000)])
            let results = try await GroupCommitHarness.runAsOneGroup(store, directory: dir.path, [committed, conflicting, writing])
            guard case .failure = results[2] else {
                Issue.record("making room did not fail: \(results[2])")
                return
            }
            switch results[0] {
            case .success(let s): #expect(s.wasAlreadyCommitted)
            case .failure(let e): Issue.record("the retry of a committed append failed: \(e)")
            }
            GroupCommitHarness.expectRefusedOnItsOwn(results[1])
            store.close()
        }
    }
}

