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
