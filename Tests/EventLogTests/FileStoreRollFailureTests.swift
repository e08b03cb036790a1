@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import Glibc
import PawtrailIO
import Testing

/// A roll that seals the active segment but cannot create the next one leaves a store that goes on consistently.
/// Exit tests: each caps its own process's descriptors.
@Suite(.serialized) struct FileStoreRollFailureTests {
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
            let undo = FileStoreRollFailureTests.capDescriptors()
            let failed = await Task { try await store.append(to: "b-1", [FileStoreGroupWriteFailureTests.random(id: uuid(2), count: 10_000)]) }.result
            let again = await Task { try await store.append(to: "b-1", [FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 10_000)]) }.result
            undo()
            guard case .failure = failed else {
                Issue.record("the roll did not fail: \(failed)")
                return
            }
            // Still without descriptors, a second try fails the same way and leaves no trace either.
            if case .success = again { Issue.record("an append without descriptors succeeded: \(again)") }
            let r = try await store.append(to: "b-1", expected: .noStream, [FileStoreGroupWriteFailureTests.random(id: uuid(4), count: 10_000)])
            #expect(r.firstPosition == 1)
            try await store.append(to: "c-1", [event()])
            let all = try await store.readAll()
            #expect(all.map(\.position) == Array(0..<UInt64(all.count)))
            #expect(all.map(\.id).prefix(2) == [uuid(1), uuid(4)])
            let first = try store.verify()
            #expect(first.isOK, "\(first)")
            store.close()
            let other = try FileEventStore.open(path: dir.path, options: options)
            try await other.append(to: "d-1", [event()])
            let all2 = try await other.readAll()
            #expect(all2.map(\.position) == Array(0..<UInt64(all2.count)))
            let second = try other.verify()
            #expect(second.isOK, "\(second)")
            other.close()
        }
    }

    /// A segment sealed while no descriptor could be opened serves its indexes from memory; the writer's upkeep
    /// saves its index files once it can, so that the next open need not rebuild them from the data.
    @Test func `index files that could not be saved at the seal are saved by the upkeep`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let options = FileEventStoreOptions(
                createIfMissing: true, segmentSize: 16 << 10, durability: .noSync, compactSealedSegments: false)
            let store = try FileEventStore.open(path: dir.path, options: options)
            try await store.append(to: "a-1", [FileStoreGroupWriteFailureTests.random(id: uuid(1), count: 10_000)])
            let undo = FileStoreRollFailureTests.capDescriptors()
            let failed = await Task { try await store.append(to: "b-1", [FileStoreGroupWriteFailureTests.random(id: uuid(2), count: 10_000)]) }.result
            undo()
            guard case .failure = failed else {
                Issue.record("the roll did not fail: \(failed)")
                return
            }
            let first = dir.path + "/segments/00000000000000000000"
            #expect(!FileManager.default.fileExists(atPath: first + ".sidx"))
            #expect(!FileManager.default.fileExists(atPath: first + ".eidx"))
            // Two more rolls, so that the upkeep is due even if an attempt failed while descriptors were capped.
            try await store.append(to: "b-1", [FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 10_000)])
            try await store.append(to: "c-1", [FileStoreGroupWriteFailureTests.random(id: uuid(4), count: 10_000)])
            try await store.append(to: "d-1", [event()])
            store.close()
            #expect(FileManager.default.fileExists(atPath: first + ".sidx"))
            #expect(FileManager.default.fileExists(atPath: first + ".eidx"))
            let reopened = try FileEventStore.open(path: dir.path, options: options)
            let report = try reopened.verify()
            #expect(report.isOK, "\(report)")
            let ids = try await reopened.readAll().map(\.id)
            #expect(ids.count == 4 && ids.prefix(3) == [uuid(1), uuid(3), uuid(4)])
            reopened.close()
        }
    }
}
