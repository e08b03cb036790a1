public import EventLog

/// A store opened for a command.
public struct OpenedStore: Sendable {
    /// The events.
    public var events: any EventStore
    /// File-level operations, when the store has files.
    public var maintenance: (any LogMaintenance)?
    /// What opening repaired, as a sentence, if anything.
    public var recovery: String?

    /// Creates an opened store.
    public init(events: any EventStore, maintenance: (any LogMaintenance)? = nil, recovery: String? = nil) {
        self.events = events
        self.maintenance = maintenance
        self.recovery = recovery
    }
}
