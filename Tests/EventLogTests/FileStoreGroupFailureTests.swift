@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// An append of a group commit that fails after the planner accepted it (here: its frame cannot be compressed
/// because the store's dictionary file is unreadable) must leave nothing behind for the group's later appends.
@Suite(.serialized) struct FileStoreGroupFailureTests {
    /// Runs `first`, then `second` and `third` in one group commit (after a trigger append that holds the
    /// committer while the writer lock is taken from outside), with a damaged dictionary so that any commit of
    /// 4 KiB to 64 KiB fails to compress. Returns the three outcomes and what the log holds.
    static func runGroup(_ requests: [AppendRequest]) async throws -> ([Result<AppendResult, any Error>], [RecordedEvent]) {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .noSync))
        try FileSystem.writeAtomically(Array("not a dictionary at all, garbage".utf8), to: dir.path + "/dictionaries/00000001.zdict")
        let results = try await GroupCommitHarness.runAsOneGroup(store, directory: dir.path, requests)
        let all = try await store.readAll()
        store.close()
        return (results, all)
    }

    static func big(id: UUID) -> ProposedEvent {
        event("Big", "{\"x\":\"\(String(repeating: "ab", count: 4000))\"}", id: id)
    }

    /// A retry of a failed append, in the same group, must not be told its events were committed (a phantom
    /// success), nor trap on the overlay's index past the end.
    @Test func `a retry in the group of an append that failed is not reported committed`() async throws {
        await #expect(processExitsWith: .success) {
            let r = AppendRequest(stream: "order-1", expected: .any, events: [FileStoreGroupFailureTests.big(id: uuid(1))])
            let (results, all) = try await FileStoreGroupFailureTests.runGroup([r, r])
            #expect(all.filter { $0.stream == "order-1" }.isEmpty)
            for (i, result) in results.enumerated() {
                if case .success(let s) = result { Issue.record("append \(i) succeeded: \(s), but the log holds \(all.map(\.id))") }
            }
        }
    }

    /// Same, with another append written in between: the failed append's overlay entry then points at that
    /// append's event, and the retry is checked against it.
    @Test func `a retry after a failed append and a written one is not checked against the written one`() async throws {
        let a = AppendRequest(stream: "order-1", expected: .any, events: [Self.big(id: uuid(1))])
        let c = AppendRequest(stream: "order-1", expected: .any, events: [event("Small", "{}", id: uuid(2))])
        let (results, all) = try await Self.runGroup([a, c, a])
        // c is written; a and its retry fail alike (with the dictionary's error).
        #expect(all.filter { $0.stream == "order-1" }.map(\.id) == [uuid(2)])
        if case .failure(let e) = results[0], case .failure(let e2) = results[2] {
            #expect("\(e)" == "\(e2)")
        } else {
            Issue.record("results: \(results)")
        }
    }

    /// The failed append's versions must not stay in the group's overlay, where a later append to the same
    /// stream would skip the versions it never wrote.
    @Test func `a failed append in the group leaves no gap in its stream's versions`() async throws {
        let a = AppendRequest(stream: "order-1", expected: .any, events: [Self.big(id: uuid(1))])
        let c = AppendRequest(stream: "order-1", expected: .any, events: [event("Small", "{}", id: uuid(2))])
        let (results, all) = try await Self.runGroup([a, c])
        guard case .failure = results[0] else {
            Issue.record("the big append did not fail: \(results[0])")
            return
        }
        let written = all.filter { $0.stream == "order-1" }
        #expect(written.map(\.version) == [0])
    }
}
