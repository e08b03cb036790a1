@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import Glibc
import PawtrailIO
import Testing

/// Failures inside a group commit, seen from outside: every outcome that came from the group's
/// overlay fails with its write.
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
                    if e.code != .io { Issue.record("append \(i) failed with \(e)") }
                case .failure(let e): Issue.record("append \(i) failed with \(e)")
                }
            }
            store.close()
        }
    }
}
