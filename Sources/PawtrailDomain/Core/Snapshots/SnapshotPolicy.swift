/// When a stream's state is saved as a snapshot: the first time a command folds it from the start, and then once a
/// command has folded it ``everyEvents`` or more events past its last snapshot, so that a later load folds fewer
/// than that many events beyond the snapshot, plus whatever was appended since. Even a short stream is saved when it
/// is first folded: its few events may lie in old, compressed blocks of the log, each a block to decompress, where
/// a snapshot is one row.
public struct SnapshotPolicy: Sendable, Hashable {
    /// How far past the last snapshot a state may get before it is saved.
    public var everyEvents: UInt64

    /// Creates a policy.
    ///
    /// - Parameter everyEvents: How far past the last snapshot a state may get; at least 1.
    public init(everyEvents: UInt64) {
        self.everyEvents = max(1, everyEvents)
    }

    /// A snapshot every 4 events: a state saved costs one row of its size (tens to a few hundred bytes), and a load
    /// then reads at most 3 events past it besides the ones appended since; those are the newest in the log, held in
    /// its uncompacted active segment.
    public static let standard = SnapshotPolicy(everyEvents: 4)

    /// Whether a state at `version` is due to be saved when its last snapshot is at `snapshotVersion`.
    ///
    /// - Parameters:
    ///   - version: The last version folded into the state.
    ///   - snapshotVersion: The last version the stored snapshot holds, `nil` when there is none.
    /// - Returns: `true` when there is no snapshot, or the state is ``everyEvents`` or more past it.
    public func isDue(version: UInt64, snapshotVersion: UInt64?) -> Bool {
        guard let snapshotVersion else { return true }
        return version >= snapshotVersion && version - snapshotVersion >= everyEvents
    }
}
