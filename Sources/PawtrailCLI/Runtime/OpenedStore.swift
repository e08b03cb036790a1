public import EventLog
public import ProjectionRuntime
import EventLogSealing

/// A store opened for a command.
public struct OpenedStore: Sendable {
    /// The events.
    public var events: any EventStore
    /// File-level operations, when the store has files.
    public var maintenance: (any LogMaintenance)?
    /// What opening repaired, as a sentence, if anything.
    public var recovery: String?

    /// Where the read models keep their states, `nil` when this store has no place for them.
    public var states: (any ProjectionStateStore)?
    /// Where decisions' stream states are kept between commands, `nil` when this store has no place for them.
    public var snapshots: (any SnapshotStore)?

    /// Creates an opened store.
    public init(
        events: any EventStore, maintenance: (any LogMaintenance)? = nil, recovery: String? = nil,
        states: (any ProjectionStateStore)? = nil, snapshots: (any SnapshotStore)? = nil
    ) {
        self.events = events
        self.states = states
        self.snapshots = snapshots
        self.maintenance = maintenance
        self.recovery = recovery
    }

    /// The backend's own store, beneath the layer that seals personal data: what a backend's reports inspect.
    public var backend: any EventStore {
        (events as? SealingEventStore)?.base ?? events
    }
}
