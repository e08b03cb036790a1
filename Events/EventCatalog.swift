public import EventLog

/// The domain event catalog: every event type the pet-care domain writes, with its schema version.
///
/// The domain issue fills this catalog; until then it lists the events the scripted demo writes, so that the
/// target is real and `pawtrail events list` has something true to show.
public struct EventCatalog: Sendable {
    /// One event type of the catalog.
    public struct Entry: Sendable, Hashable {
        /// The stable type name written to the log.
        public var type: String
        /// The current schema version.
        public var schemaVersion: Int
        /// The area it belongs to (`accounts`, `pets`, ...).
        public var area: String
        /// The fields of its data, in order.
        public var fields: [String]

        /// Creates an entry; its type name must pass ``EventLimits/validateEventType(_:)``.
        public init(type: String, schemaVersion: Int, area: String, fields: [String]) {
            self.type = type
            self.schemaVersion = schemaVersion
            self.area = area
            self.fields = fields
        }
    }

    /// The entries, by type name.
    public let entries: [Entry]

    /// Creates a catalog.
    public init(entries: [Entry]) {
        self.entries = entries
    }
}
