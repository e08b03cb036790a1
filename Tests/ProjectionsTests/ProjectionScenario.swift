import EventLog
import Events
import Projections
import Testing

/// Given events (with their streams and the command clocks that caused them), fold a projection: the state and
/// its views are then checked value by value.
struct ProjectionScenario {
    /// The clock of the first event: 2026-12-01T09:00:00Z; each event is one minute after the previous one unless
    /// given its own time.
    static let start = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    private(set) var events: [ProjectedEvent] = []

    /// Adds an event on a stream, at a time (default: a minute after the previous event), with the actor and the
    /// command that caused it when given.
    mutating func given(
        _ stream: String, _ event: any DomainEvent, at time: String? = nil, actor: String? = nil, command: String? = nil
    ) {
        let previous = events.last?.occurredAt ?? Timestamp(microsecondsSinceEpoch: Self.start.microsecondsSinceEpoch - 60_000_000)
        let at = time.map { Timestamp(iso8601: $0)! } ?? Timestamp(microsecondsSinceEpoch: previous.microsecondsSinceEpoch + 60_000_000)
        var metadata = EventMetadata()
        metadata["occurredAt"] = at.iso8601
        if let actor { metadata[EventMetadata.actor] = actor }
        if let command { metadata["command"] = command }
        events.append(
            ProjectedEvent(
                position: UInt64(events.count), stream: StreamID(unchecked: stream), recordedAt: at, metadata: metadata,
                event: event))
    }

    /// The projection's state after every given event, checked to survive its own encoding.
    func state<P: Projection>(_ projection: P.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> P.State {
        let state = try P.folded(events)
        var w = BinaryFieldWriter()
        state.write(to: &w)
        var r = BinaryFieldReader(w.bytes)
        #expect(try P.State(reading: &r) == state, "the state does not survive its encoding", sourceLocation: sourceLocation)
        return state
    }

    /// A view of the projection's state.
    func view<V: ProjectionView>(_ view: V.Type, _ arguments: [String: String] = [:]) throws -> ViewOutput {
        try V.render(try state(V.Source.self), ViewArguments(arguments))
    }
}
