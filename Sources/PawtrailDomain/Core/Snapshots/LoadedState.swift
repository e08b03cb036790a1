import EventLog
import Foundation

/// One stream's state as a decision loaded it, by one aggregate: what the handler carries past the append into the
/// process's cache and the snapshot store.
public struct LoadedState: Sendable {
    /// The state.
    public var state: any Aggregate
    /// The last version folded, `nil` for a stream without events.
    public var version: UInt64?
    /// The global position of the event at ``version``.
    public var position: UInt64?
    /// The id of the event at ``version``.
    public var eventID: UUID?
    /// The version the stored snapshot holds, `nil` when none was found (or it did not fit).
    public var snapshotVersion: UInt64?

    /// Creates a loaded state.
    public init(state: any Aggregate, version: UInt64?, position: UInt64?, eventID: UUID?, snapshotVersion: UInt64?) {
        self.state = state
        self.version = version
        self.position = position
        self.eventID = eventID
        self.snapshotVersion = snapshotVersion
    }

    /// The state as a snapshot of a stream, `nil` for a stream without events.
    func snapshot(of stream: StreamID) -> StreamSnapshot? {
        guard let version, let position, let eventID else { return nil }
        return StreamSnapshot(
            stream: stream, kind: type(of: state).snapshotKind, schemaVersion: type(of: state).schemaVersion, version: version,
            position: position, eventID: eventID, state: state.snapshotBytes(), subject: state.personalDataSubject)
    }
}

/// What loading cost a decision: the work that must not grow with a stream's age.
public struct LoadStats: Sendable, Hashable {
    /// Streams loaded (by one aggregate each).
    public var streams = 0
    /// Events read from the log and folded.
    public var eventsRead = 0
    /// States taken up from a snapshot.
    public var snapshotHits = 0
    /// States taken up from the process's cache.
    public var cacheHits = 0
    /// Snapshots found but not taken up (another schema version, damaged, or of another history).
    public var snapshotsPassedOver = 0

    public init() {}

    /// Adds another's counts.
    public mutating func add(_ other: LoadStats) {
        streams += other.streams
        eventsRead += other.eventsRead
        snapshotHits += other.snapshotHits
        cacheHits += other.cacheHits
        snapshotsPassedOver += other.snapshotsPassedOver
    }
}
