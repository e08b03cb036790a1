public import Foundation

/// An append-only store of events: the one protocol every backend (file log, in memory, PostgreSQL) implements.
///
/// # Implementation requirements
/// - ``append(_:)`` is atomic: every event of the request commits, or none does. Run ``AppendPlanner`` under
///   the store's write serialization so that validation, idempotency and expected versions mean the same on
///   every backend. Positions are gapless and 0-based; versions are 0-based per stream.
/// - ``append(_:)`` returns only once the commit is durable (for a disk store: flushed to stable storage).
/// - Reads never return part of a commit, and never return an event that is not yet durable, except to the process
///   that appended it with ``AppendRequest/defersFlush`` (see ``flush()``).
/// - `recordedAt` never decreases along the log.
/// - Errors are ``EventStoreError`` values.
///
/// Every implementation must pass the conformance suite in `Tests/EventLogTests/EventStoreConformance.swift`,
/// which runs the same cases against each backend.
public protocol EventStore: Sendable {
    /// Appends events atomically to one or more streams, under their expected versions and conditions.
    ///
    /// - Parameter request: The events and expectations.
    /// - Returns: The positions written and each written stream's version after the append; for an identical
    ///   retry, the original result with ``AppendResult/wasAlreadyCommitted`` set.
    /// - Throws: ``EventStoreError/wrongExpectedVersion(stream:expected:actual:)`` (retryable),
    ///   ``EventStoreError/idempotencyConflict(eventID:reason:)``, ``EventStoreError/invalidRequest(_:)``, or an
    ///   I/O or corruption error.
    func append(_ request: AppendRequest) async throws -> AppendResult

    /// Reads one page of events.
    ///
    /// - Parameter request: What to read, from where, how many.
    /// - Returns: The events and where to continue.
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` when the read reaches damaged data, or an
    ///   I/O error.
    func read(_ request: ReadRequest) async throws -> ReadBatch

    /// The current version of a stream.
    ///
    /// - Parameter stream: The stream.
    /// - Returns: The version of its last event, `nil` if it holds no events.
    /// - Throws: An I/O or corruption error.
    func streamVersion(of stream: StreamID) async throws -> UInt64?

    /// The global position of a stream's event at a version, found without reading the event where the store can
    /// (an index): what tells a cached state of the stream (a snapshot) from one of another history.
    ///
    /// - Parameters:
    ///   - stream: The stream.
    ///   - version: The version.
    /// - Returns: The position, `nil` when the stream holds no event at that version.
    /// - Throws: An I/O or corruption error.
    func position(of stream: StreamID, version: UInt64) async throws -> UInt64?

    /// The event at a global position, looked up where the store can rather than read by a scan: what a read
    /// model's resume checks its checkpoint against.
    ///
    /// - Parameter position: The position.
    /// - Returns: The event, `nil` past the end of the log.
    /// - Throws: An I/O or corruption error.
    func event(at position: UInt64) async throws -> RecordedEvent?

    /// The committed event with an id, looked up in the store's index of ids: what tells a re-sent command (whose
    /// event ids derive from its command id) from a new one.
    ///
    /// - Parameter id: The event id.
    /// - Returns: The event, `nil` when no committed event has that id.
    /// - Throws: An I/O or corruption error.
    func event(withID id: UUID) async throws -> RecordedEvent?

    /// The position of the last committed event.
    ///
    /// - Returns: The position, `nil` for an empty store.
    /// - Throws: An I/O or corruption error.
    func lastPosition() async throws -> UInt64?

    /// The last committed event's position and commit time, when the store knows them without reading the log (a
    /// file store opened to be read only when needed knows them from its head file until its first read).
    ///
    /// - Returns: The head, or `nil` when telling it would mean reading the log, or the store is empty.
    /// - Throws: An I/O error.
    func knownHead() async throws -> LogHead?

    /// The position of the last event recorded at or before a time: where reads "as of time T" end. `recordedAt`
    /// never decreases along the log, so the answer is a prefix of the log.
    ///
    /// - Parameter time: The moment (UTC).
    /// - Returns: The position, `nil` when no event was recorded at or before `time`.
    /// - Throws: An I/O or corruption error.
    func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64?

    /// Waits until an event after `position` is committed (by this process or another one), or the timeout.
    ///
    /// - Parameters:
    ///   - position: The last position the caller has seen; `nil` for none.
    ///   - timeout: The longest wait.
    /// - Returns: `true` if there are events after `position`.
    /// - Throws: An I/O error, or `CancellationError`.
    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool

    /// Makes every append this process made with ``AppendRequest/defersFlush`` durable and visible to every reader;
    /// returns at once when there are none. When it throws, those appends are lost, and the store refuses further
    /// appends in this process.
    ///
    /// - Throws: An I/O error.
    func flush() async throws
}

extension EventStore {
    /// A store whose every append is durable when it returns has nothing to flush.
    public func flush() async throws {}

    /// A store that must read its log to tell its head.
    public func knownHead() async throws -> LogHead? { nil }
}

/// Where a log ends: its last event's position and commit time.
public struct LogHead: Sendable, Hashable {
    /// The last event's position.
    public var position: UInt64
    /// When it was committed (`recordedAt` never decreases along the log, so no later event is older).
    public var recordedAt: Timestamp

    /// Creates a head.
    ///
    /// - Parameters:
    ///   - position: The last event's position.
    ///   - recordedAt: Its commit time.
    public init(position: UInt64, recordedAt: Timestamp) {
        self.position = position
        self.recordedAt = recordedAt
    }
}

extension EventStore {
    /// A read of the whole log from the position: correct for any store.
    public func event(at position: UInt64) async throws -> RecordedEvent? {
        try await read(ReadRequest(source: .all, from: position, limit: 1)).events.first { $0.position == position }
    }
}

extension EventStore {
    /// A scan of the whole log: correct for any store, and meant only for test doubles; a backend answers from its
    /// index of ids.
    public func event(withID id: UUID) async throws -> RecordedEvent? {
        var from: UInt64 = 0
        while true {
            let batch = try await read(ReadRequest(source: .all, from: from, limit: 4096))
            if let e = batch.events.first(where: { $0.id == id }) { return e }
            guard let next = batch.next else { return nil }
            from = next
        }
    }
}

extension EventStore {
    /// Reads the event itself: correct for any store, and what a store without an index of its streams does.
    public func position(of stream: StreamID, version: UInt64) async throws -> UInt64? {
        let batch = try await read(ReadRequest(source: .stream(stream), from: version, limit: 1))
        guard let e = batch.events.first, e.version == version else { return nil }
        return e.position
    }
}
