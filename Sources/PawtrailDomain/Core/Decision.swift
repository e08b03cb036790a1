public import EventLog
public import Events

/// Events for one stream, under an expected version.
public struct StreamWrite: Sendable {
    /// The stream.
    public var stream: StreamID
    /// The events, in order.
    public var events: [any DomainEvent]
    /// The expected version; `nil` uses the version the decision loaded the stream at (the stream must have been
    /// loaded).
    public var expected: ExpectedVersion?

    /// Creates a write.
    public init(_ stream: StreamID, _ events: [any DomainEvent], expected: ExpectedVersion? = nil) {
        self.stream = stream
        self.events = events
        self.expected = expected
    }
}

/// What a command decided: events for one or more streams, committed in one atomic append. No writes means the
/// command changed nothing (an idempotent re-send).
public struct Decision: Sendable {
    /// The writes, in commit order.
    public var writes: [StreamWrite]

    /// Creates a decision.
    public init(_ writes: [StreamWrite]) {
        self.writes = writes
    }

    /// A decision that appends events to one stream.
    public static func append(_ stream: StreamID, _ events: any DomainEvent..., expected: ExpectedVersion? = nil) -> Decision {
        Decision([StreamWrite(stream, events, expected: expected)])
    }

    /// A decision that changes nothing.
    public static let nothing = Decision([])
}
