/// The one place beside the log that keeps personal values in the clear: an index of subjects (accounts) by a sort key
/// and search terms made from their personal values, for the views that must order or search by them (the customer
/// directory, by name). Read models keep tokens instead (``Events/PersonalReference``), which cannot be sorted.
///
/// Each entry holds between two positions of the log, so the index answers as of any past position. Erasing a
/// subject deletes every entry it ever had, present and past, and the implementation overwrites their bytes: an erased
/// account is gone from the directory's present and its past. The index is derived data: it is made again from the
/// log whenever it is missing, damaged or of another ``PersonalIndexing/version``.
///
/// # Implementation requirements
/// - ``apply(_:from:through:version:)`` stores the changes and the new position together or not at all, and only when
///   the stored position and version are still `from` and `version`.
/// - Queries see one committed state.
/// - ``PersonalIndexChange/erase(_:)`` leaves no copy of the subject's values in the index's files.
///
/// Every implementation must pass the cases of `PersonalIndexConformance` (in `ProjectionRuntimeTestKit`).
public protocol PersonalIndex: AnyObject, Sendable {
    /// The indexer's version and the last position folded in, `nil` when nothing was ever stored.
    ///
    /// - Throws: An I/O or server error.
    func checkpoint() async throws -> (version: Int, position: UInt64)?

    /// Stores changes folded from the events after `from` through `through`.
    ///
    /// - Parameters:
    ///   - changes: The changes, in the order of their events.
    ///   - from: The position the caller folded from: the stored one, or `nil` for an empty index (which a rebuild
    ///     empties first).
    ///   - through: The last position folded.
    ///   - version: The indexer's version.
    /// - Returns: `false` when the stored position or version is no longer `from` and `version` (another process
    ///   stored first); nothing is stored then.
    /// - Throws: An I/O or server error.
    func apply(_ changes: [PersonalIndexChange], from: UInt64?, through: UInt64, version: Int) async throws -> Bool

    /// Removes every entry and the checkpoint, for a rebuild.
    func reset() async throws

    /// A subject's entry as of the stored position, `nil` when it has none.
    func entry(of subject: String) async throws -> PersonalIndexEntry?

    /// The subjects that had an entry at a position, in the order of their sort keys (then subjects).
    ///
    /// - Parameters:
    ///   - position: The position.
    ///   - words: When not empty, only the subjects whose terms hold each word as the start of a term.
    ///   - offset: Subjects to skip.
    ///   - limit: The most subjects returned.
    /// - Returns: The subjects, and how many there are in all.
    func subjects(asOf position: UInt64, matching words: [String], offset: Int, limit: Int) async throws -> (subjects: [String], total: Int)

    /// The personal values the index remembered of events at these positions (``PersonalIndexChange/remember(_:subject:values:)``),
    /// in the order their decoders read them: what views show for the tokens naming them, without reading the log.
    ///
    /// - Parameter positions: The events' positions.
    /// - Returns: The values of those it remembers.
    func values(at positions: [UInt64]) async throws -> [UInt64: [String]]

    /// The positions of every event whose values the index remembers, in order: what an audit compares, so that
    /// values left behind by an erasure are found wherever they are.
    ///
    /// - Returns: The positions.
    /// - Throws: An I/O or server error.
    func rememberedPositions() async throws -> [UInt64]
}
