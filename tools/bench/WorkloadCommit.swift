import BenchSupport
import EventLog

/// The events of one append, in order. Its events share one correlation id.
struct WorkloadCommit: Sendable {
    /// The events, in commit order.
    let events: [WorkloadEvent]

    /// The append for the store: the events, each written stream with an exact expected version (or
    /// `no-stream`), exactly as a careful application writes.
    var request: AppendRequest {
        var expectations: [AppendRequest.Expectation] = []
        var seen = Set<Int>()
        for e in events where seen.insert(e.streamIndex).inserted {
            expectations.append(.init(stream: e.stream, expected: e.versionBefore.map { .exact($0) } ?? .noStream))
        }
        return AppendRequest(entries: events.map { .init(stream: $0.stream, event: $0.event) }, expectations: expectations)
    }
}
