public import EventLog
public import Foundation

/// What a projection's stored state says about itself: the position it reflects and its bookkeeping.
public struct CheckpointInfo: Sendable, Hashable {
    /// The projection's name.
    public var name: String
    /// The schema version the state was folded with.
    public var schemaVersion: Int
    /// The last position folded, `nil` for a state of an empty log.
    public var position: UInt64?
    /// Events the projection applied since it was last rebuilt from scratch.
    public var eventsApplied: Int64
    /// When the last rebuild from scratch finished.
    public var rebuiltAt: Timestamp
    /// How long the last rebuild took, in microseconds.
    public var rebuildMicroseconds: Int64
    /// When this checkpoint was written.
    public var savedAt: Timestamp
    /// The id of the event at ``position``: a resume checks it, so that a log that diverged from the one the state
    /// was folded from (a promoted replica that lost the last commits, a restore from an older backup, another
    /// store's states) is caught and the state rebuilt. `nil` in states written before it was recorded.
    public var eventID: UUID?
    /// When the event at ``position`` was recorded: checked with ``eventID``. Event ids derived from command ids are
    /// the same in every log the same commands went into, so the id alone would take a log where those commands
    /// landed in another order for the one the state was folded from; the commit time tells them apart, and a copy
    /// of the log (`store migrate`, a replica, a backup) keeps it. `nil` in states written before it was recorded.
    public var eventRecordedAt: Timestamp?

    /// Creates a checkpoint.
    public init(
        name: String, schemaVersion: Int, position: UInt64?, eventsApplied: Int64, rebuiltAt: Timestamp, rebuildMicroseconds: Int64,
        savedAt: Timestamp, eventID: UUID? = nil, eventRecordedAt: Timestamp? = nil
    ) {
        self.name = name
        self.schemaVersion = schemaVersion
        self.position = position
        self.eventsApplied = eventsApplied
        self.rebuiltAt = rebuiltAt
        self.rebuildMicroseconds = rebuildMicroseconds
        self.savedAt = savedAt
        self.eventID = eventID
        self.eventRecordedAt = eventRecordedAt
    }
}
