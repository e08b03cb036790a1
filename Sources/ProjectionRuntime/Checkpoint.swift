public import EventLog
import Events

/// A projection's stored state together with the log position it reflects, written as one file, so a crash can
/// neither separate them nor leave half of either.
public struct Checkpoint: Sendable, Hashable {
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
    /// The state in its field encoding.
    public var state: [UInt8]

    public init(
        name: String, schemaVersion: Int, position: UInt64?, eventsApplied: Int64, rebuiltAt: Timestamp,
        rebuildMicroseconds: Int64, savedAt: Timestamp, state: [UInt8]
    ) {
        self.name = name
        self.schemaVersion = schemaVersion
        self.position = position
        self.eventsApplied = eventsApplied
        self.rebuiltAt = rebuiltAt
        self.rebuildMicroseconds = rebuildMicroseconds
        self.savedAt = savedAt
        self.state = state
    }
}

/// Where checkpoints and snapshots live. The file store keeps them beside the log; a PostgreSQL deployment
/// would keep them in a table, with the same atomicity: a checkpoint is replaced whole or not at all.
public protocol CheckpointStore: Sendable {
    /// The checkpoint of a projection at a schema version, `nil` when there is none.
    func load(_ name: String, version: Int) throws -> Checkpoint?
    /// The header of a checkpoint (its `state` empty), read without the state: for status and for choosing where
    /// time travel starts. `nil` when there is none or it is unreadable.
    func header(_ name: String, version: Int) throws -> Checkpoint?
    /// Replaces the checkpoint of `checkpoint.name` at its schema version, atomically and durably.
    func save(_ checkpoint: Checkpoint) throws
    /// The schema versions that have a checkpoint, ascending.
    func versions(of name: String) throws -> [Int]
    /// Removes a version's checkpoint and snapshots (an old version, once the new one has caught up).
    func remove(_ name: String, version: Int) throws
    /// Stores a snapshot of a state at a position (for time travel); snapshots are derived data, so they need
    /// not be flushed.
    func saveSnapshot(_ name: String, version: Int, position: UInt64, state: [UInt8]) throws
    /// The positions that have snapshots, ascending.
    func snapshotPositions(_ name: String, version: Int) throws -> [UInt64]
    /// A snapshot's state bytes.
    func loadSnapshot(_ name: String, version: Int, position: UInt64) throws -> [UInt8]
    /// Removes every snapshot of a version (before a rebuild writes new ones).
    func removeSnapshots(_ name: String, version: Int) throws
    /// Takes the projection's writer lock without waiting: `false` when another process holds it (rebuilding).
    func tryLock(_ name: String) throws -> (any ProjectionLock)?
}

/// A held writer lock; released by `unlock()` or when the holder goes away.
public protocol ProjectionLock: Sendable {
    func unlock()
}
