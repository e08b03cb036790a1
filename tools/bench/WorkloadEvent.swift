import BenchSupport
import EventLog

/// One generated event with its stream and the stream's version before it, so that the event can be appended
/// with an exact expected version.
struct WorkloadEvent: Sendable {
    /// The stream's index among the workload's 10,000 streams (0-based).
    let streamIndex: Int
    /// The stream id, `<category>-<n>`.
    let stream: StreamID
    /// The stream's version before this event; `nil` when this is the stream's first event.
    let versionBefore: UInt64?
    /// The event as appended (id, type, data, metadata).
    let event: ProposedEvent

    /// The version this event takes in its stream.
    var version: UInt64 { versionBefore.map { $0 + 1 } ?? 0 }
}
