@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Puts appends into one group commit of a file store, for tests of what a group does when part of it fails.
enum GroupCommitHarness {
    /// Runs `requests` as one group commit: a trigger append takes the committer, which then waits for the writer
    /// lock taken here from outside, while the requests queue behind it; releasing the lock lets the trigger
    /// commit alone and the requests commit together as the next group. The pauses only give each task time to
    /// queue: a request that missed the group would make a test weaker, never make it fail.
    ///
    /// - Returns: The requests' outcomes, in order.
    static func runAsOneGroup(_ store: FileEventStore, directory: String, _ requests: [AppendRequest]) async throws -> [Result<AppendResult, any Error>] {
        let lock = try FileDescriptor.open(directory + "/" + LogFormat.lockName, .readWriteCreate)
        _ = try lock.lockExclusive()
        let trigger = Task { try await store.append(to: "trigger-1", [event()]) }
        try await Task.sleep(for: .milliseconds(300))
        var tasks: [Task<AppendResult, any Error>] = []
        for r in requests {
            tasks.append(Task { try await store.append(r) })
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(200))
        try lock.unlock()
        _ = await trigger.result
        var results: [Result<AppendResult, any Error>] = []
        for t in tasks { results.append(await t.result) }
        return results
    }

    /// Records an issue unless `result` is a wrong-expected-version failure: an append refused on its own grounds
    /// must keep that outcome whatever happens to the rest of its group.
    static func expectRefusedOnItsOwn(_ result: Result<AppendResult, any Error>, sourceLocation: SourceLocation = #_sourceLocation) {
        if case .failure(let e as EventStoreError) = result, e.code == .wrongExpectedVersion { return }
        Issue.record("the append refused for its expected version ended with \(result)", sourceLocation: sourceLocation)
    }
}
