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
}

/// A subject's values as the index keeps them.
public struct PersonalIndexEntry: Hashable, Sendable {
    /// The values the entry is made of (for an account: name, email, phone), so that a change to one makes the
    /// entry again.
    public var values: [String]
    /// What the subjects sort by.
    public var sortKey: String
    /// The words a search matches the start of, lowercased.
    public var terms: [String]

    /// Creates an entry.
    public init(values: [String], sortKey: String, terms: [String]) {
        self.values = values
        self.sortKey = sortKey
        self.terms = terms
    }
}

/// One change to a ``PersonalIndex``.
public enum PersonalIndexChange: Hashable, Sendable {
    /// From this position on, the subject's entry is this one (its previous entry, if any, ends there).
    case put(String, PersonalIndexEntry, at: UInt64)
    /// Every entry the subject ever had is deleted, and every value remembered of it.
    case erase(String)
    /// The personal values of the event at a position, opened, and whose they are.
    case remember(UInt64, subject: String, values: [String])
}

/// What keeps a ``PersonalIndex``: the events it reads and the changes each makes, from events with their personal
/// values opened. A pure function, like a projection's fold.
public protocol PersonalIndexing: Sendable {
    /// Bump it whenever ``changes(_:entry:)`` or the entries' shape changes: the index is made again.
    static var version: Int { get }
    /// The event types read.
    static var eventTypes: Set<String> { get }
    /// The changes one event makes.
    ///
    /// - Parameters:
    ///   - event: The event, its personal values opened.
    ///   - entry: A subject's entry so far.
    /// - Returns: The changes.
    static func changes(_ event: ProjectedEvent, entry: (String) async throws -> PersonalIndexEntry?) async rethrows -> [PersonalIndexChange]
}
