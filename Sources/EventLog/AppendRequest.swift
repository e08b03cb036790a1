/// One atomic append: events for one or more streams, each stream with its own expected version, plus
/// check-only conditions on streams the append does not write. All of it commits, or none of it.
public struct AppendRequest: Sendable {
    /// An event and the stream it goes to.
    public struct Entry: Sendable, Hashable {
        /// The target stream.
        public var stream: StreamID
        /// The event.
        public var event: ProposedEvent

        /// Creates an entry.
        public init(stream: StreamID, event: ProposedEvent) {
            self.stream = stream
            self.event = event
        }
    }

    /// What the append expects of one stream.
    public struct Expectation: Sendable, Hashable {
        /// The stream.
        public var stream: StreamID
        /// Its expected version.
        public var expected: ExpectedVersion
        /// When `true` the stream is only checked, never written: it must not receive events in this append.
        public var checkOnly: Bool

        /// Creates an expectation.
        public init(stream: StreamID, expected: ExpectedVersion, checkOnly: Bool = false) {
            self.stream = stream
            self.expected = expected
            self.checkOnly = checkOnly
        }
    }

    /// The events, in the order they are committed.
    public var entries: [Entry] { didSet { isValidated = false } }
    /// Expected versions of written streams (default `any`) and check-only conditions.
    public var expectations: [Expectation] { didSet { isValidated = false } }
    /// Whether ``AppendPlanner/validated(_:)`` checked exactly these entries and expectations, so that a store
    /// need not check them again (a batch of 10,000 events is otherwise checked by the caller, to refuse bad
    /// input before a store is created, and again by the store). Any change to either clears it; only the
    /// planner sets it.
    public internal(set) var isValidated = false
    /// When `true`, the append may return before it is durable: this process sees it at once (its next appends and
    /// reads build on it), and it becomes durable, and visible to other processes, when ``EventStore/flush()``
    /// returns. A caller that reports the append to anyone must flush first. Stores whose every append is durable
    /// at once ignore it.
    public var defersFlush = false
    /// Where and when another store recorded this commit, for a store that imports it as it was
    /// (``EventImporting``): the store writes it at exactly that position and time, or refuses it.
    package var imported: ImportedCommit?

    /// Creates a multi-stream append.
    ///
    /// - Parameters:
    ///   - entries: The events in commit order.
    ///   - expectations: At most one per stream.
    public init(entries: [Entry], expectations: [Expectation] = []) {
        self.entries = entries
        self.expectations = expectations
    }

    /// Creates an append to one stream.
    ///
    /// - Parameters:
    ///   - stream: The stream.
    ///   - expected: Its expected version.
    ///   - events: The events; an empty list only checks the expectation and reports the current version.
    public init(stream: StreamID, expected: ExpectedVersion = .any, events: [ProposedEvent]) {
        self.entries = events.map { Entry(stream: stream, event: $0) }
        self.expectations = [Expectation(stream: stream, expected: expected)]
    }
}

/// A commit's position and time in the store it is copied from.
package struct ImportedCommit: Sendable, Hashable {
    /// The position of its first event.
    package var position: UInt64
    /// Its time.
    package var recordedAt: Timestamp

    package init(position: UInt64, recordedAt: Timestamp) {
        self.position = position
        self.recordedAt = recordedAt
    }
}
