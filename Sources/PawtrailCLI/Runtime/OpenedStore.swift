public import EventLog
public import ProjectionRuntime

/// A store opened for a command.
public struct OpenedStore: Sendable {
    /// The events.
    public var events: any EventStore
    /// File-level operations, when the store has files.
    public var maintenance: (any LogMaintenance)?
    /// What opening repaired, as a sentence, if anything.
    public var recovery: String?

    /// Creates an opened store.
    /// Where the read models keep their states, `nil` when this store has no place for them.
    public var checkpoints: (any CheckpointStore)?

    public init(
        events: any EventStore, maintenance: (any LogMaintenance)? = nil, recovery: String? = nil,
        checkpoints: (any CheckpointStore)? = nil
    ) {
        self.events = events
        self.checkpoints = checkpoints
        self.maintenance = maintenance
        self.recovery = recovery
    }
}
