public import EventLog

/// The streams of the domain, by name. Each entity is its own stream (`pet-rex`), so its events are read
/// without scanning and its version guards its invariants; singletons (`roles`, `catalog`) guard global ones.
public enum Streams {
    /// The stream of a category and an id; ids are validated by ``Validate/id(_:field:)`` first.
    public static func named(_ category: String, _ id: String) -> StreamID {
        StreamID(unchecked: "\(category)-\(id)")
    }

    /// Who holds the admin and staff roles.
    public static let roles = StreamID(unchecked: "roles")
    /// The shop's settings.
    public static let settings = StreamID(unchecked: "settings")
    /// A user's account.
    public static func account(_ userID: String) -> StreamID { named("account", userID) }
}
