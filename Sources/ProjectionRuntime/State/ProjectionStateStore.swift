public import Projections

/// Where the read models keep their states: per projection and schema version, a checkpoint (the position the state
/// reflects) and rows, each with its versions by log position (see ``RowVersion``). The file store keeps them in run
/// files beside the log; a database server would keep them in tables, with the same atomicity: a commit's rows and
/// its checkpoint are stored together or not at all.
///
/// # Implementation requirements
/// - A reader (``open(_:version:)``) sees one committed state: every row and the checkpoint of the last commit
///   before it opened, whatever commits come after.
/// - ``writer(_:version:replacing:)`` is called under the projection's lock (``tryLock(_:)``); its ``StateWriter``
///   stores nothing visible until ``StateWriter/finish(_:)``, which stores every row added and the checkpoint at once.
/// - A row's value as of a position is its newest version at or before it. Versions not marked `keep` may be dropped
///   once a newer version of their row is stored; kept versions stay until their schema version is removed.
/// - ``tryLock(_:)`` returns `nil`, never throws, when the projection's state cannot be written here (another process
///   holds the lock, or the store is read-only): the caller then folds in memory and saves nothing.
///
/// Every implementation must pass the cases of `ProjectionStateStoreConformance` (in `ProjectionRuntimeTestKit`).
public protocol ProjectionStateStore: Sendable {
    /// The stored state of a projection at a schema version, `nil` when there is none.
    ///
    /// - Throws: An I/O error, or ``EventStoreError/corrupted(location:offset:reason:)`` when the state is damaged (the
    ///   caller rebuilds it).
    func open(_ name: String, version: Int) throws -> (any StoredProjectionState)?

    /// Takes the projection's writer lock without waiting.
    ///
    /// - Returns: The lock, or `nil` when another process holds it or this store cannot be written.
    func tryLock(_ name: String) throws -> (any ProjectionLock)?

    /// Starts storing rows of a projection's schema version (the caller holds the projection's lock).
    ///
    /// - Parameters:
    ///   - name: The projection.
    ///   - version: Its schema version.
    ///   - replacing: Whether the rows replace everything stored for the version (a rebuild) or add to it (a
    ///     catch-up, whose checkpoint follows the stored one).
    /// - Returns: A writer.
    func writer(_ name: String, version: Int, replacing: Bool) throws -> any StateWriter

    /// The schema versions that have a stored state, ascending.
    func versions(of name: String) throws -> [Int]

    /// Removes a schema version's state (an old version, once the new one has caught up).
    func remove(_ name: String, version: Int) throws

    /// The store's personal index (``Projections/PersonalIndex``), kept beside the states; `nil` (the default) when
    /// this store keeps none, and the runtime makes one in memory when a view needs it.
    ///
    /// - Throws: An I/O or server error.
    func personalIndex() throws -> (any PersonalIndex)?
}

extension ProjectionStateStore {
    public func personalIndex() throws -> (any PersonalIndex)? { nil }
}

/// One committed state of a projection, as a reader sees it.
public protocol StoredProjectionState: Sendable {
    /// The checkpoint.
    var checkpoint: CheckpointInfo { get }

    /// A row's newest version at or before a position (`nil`: the newest of all); `nil` when it has none (an absent
    /// version may be returned as `nil` too: either way the row is not there).
    func version(of key: RowKey, asOf position: UInt64?) throws -> RowVersion?

    /// ``version(of:asOf:)`` of several rows; a row with no version is left out. Stores on a server answer it in one
    /// round trip; the default asks row by row.
    func versions(of keys: [RowKey], asOf position: UInt64?) throws -> [RowKey: RowVersion]

    /// The rows whose keys start with a prefix (a group's: see ``RowKey/groupPrefix(table:group:)``) as of a
    /// position, present ones only, in stored order.
    func rows(group prefix: [UInt8], asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])]

    /// Every present row of a table as of a position, in stored order.
    func rows(table: UInt8, asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])]

    /// The position of a row's newest version marked kept, `nil` when it has none (where a whole state's last
    /// snapshot is).
    func newestKept(_ key: RowKey) throws -> UInt64?

    /// How many row versions are stored, and their bytes.
    var size: (versions: Int, bytes: Int) { get }
}

extension StoredProjectionState {
    public func versions(of keys: [RowKey], asOf position: UInt64?) throws -> [RowKey: RowVersion] {
        var out: [RowKey: RowVersion] = [:]
        for key in keys { if let v = try version(of: key, asOf: position) { out[key] = v } }
        return out
    }
}

/// Adds rows to a projection's stored state, all of which become visible together.
public protocol StateWriter: AnyObject, Sendable {
    /// Adds row versions, in any order (a writer may store them as they come, invisibly until ``finish(_:)``).
    func add(_ versions: RowVersions) throws

    /// Adds row versions, leaving `versions` empty, possibly holding memory the writer is done with for the caller to
    /// fill again (a rebuild hands over buffers of a hundred megabytes or so many times).
    func add(recycling versions: inout RowVersions) throws

    /// Stores every row added, and the checkpoint, atomically. Every row added lies at or before the checkpoint's
    /// position: a catch-up writes what the events it folded changed.
    func finish(_ checkpoint: CheckpointInfo) throws
}

extension StateWriter {
    /// Adds the versions and leaves `versions` empty.
    public func add(recycling versions: inout RowVersions) throws {
        try add(versions.take())
    }

    /// Adds row versions given one by one.
    public func add(_ versions: [RowVersion]) throws {
        var packed = RowVersions()
        for v in versions { packed.add(v) }
        try add(packed)
    }
}

/// A held writer lock; released by `unlock()` or when the holder goes away.
public protocol ProjectionLock: Sendable {
    func unlock()
}
