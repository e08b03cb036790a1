/// Which events a read covers.
public enum ReadSource: Hashable, Sendable {
    /// The whole log, by global position.
    case all
    /// One stream, by stream version.
    case stream(StreamID)
    /// Every stream whose category (id before the first `-`) is the given name, by global position.
    case category(String)
}

/// The direction of a read.
public enum ReadDirection: Hashable, Sendable {
    case forward
    case backward
}

/// A read of one page of events.
public struct ReadRequest: Hashable, Sendable {
    /// What to read.
    public var source: ReadSource
    /// Forward (ascending) or backward (descending).
    public var direction: ReadDirection
    /// Where to start, inclusive: a stream version for `.stream`, a global position otherwise. `nil` starts at
    /// the beginning (forward) or the end (backward).
    public var from: UInt64?
    /// The most events to return.
    public var limit: Int
    /// Only events of these types; `nil` for all.
    public var eventTypes: Set<String>?

    /// Creates a read request.
    public init(
        source: ReadSource, direction: ReadDirection = .forward, from: UInt64? = nil, limit: Int = 1000,
        eventTypes: Set<String>? = nil
    ) {
        self.source = source
        self.direction = direction
        self.from = from
        self.limit = limit
        self.eventTypes = eventTypes
    }
}

/// One page of a read.
public struct ReadBatch: Hashable, Sendable {
    /// The events, in the requested direction.
    public var events: [RecordedEvent]
    /// Where to continue (the `from` of the next request): the first event the read did not examine, whether or
    /// not it passes the filters; `nil` when the read examined everything to the end of the source. A page may
    /// hold fewer than `limit` events, even none, while `next` is not `nil` (a filtered read scans in steps).
    public var next: UInt64?

    /// Creates a page.
    public init(events: [RecordedEvent], next: UInt64?) {
        self.events = events
        self.next = next
    }
}
