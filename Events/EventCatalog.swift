public import PawtrailJSON

/// The domain event catalog: every event type the pet-care domain writes, by area, with schema versions and
/// fields, and the one place that turns a stored event back into a value or into JSON.
public struct EventCatalog: Sendable {
    /// One event type of the catalog.
    public struct Entry: Sendable {
        /// The stable type name written to the log.
        public var type: String
        /// The current schema version.
        public var schemaVersion: Int
        /// The area it belongs to (`accounts`, `pets`, ...).
        public var area: String
        /// One sentence on what happened.
        public var summary: String
        /// The fields of its data, in order.
        public var fields: [FieldDescriptor]
        /// The Swift type.
        public var eventType: any DomainEvent.Type
    }

    /// Every area's events, in the order `pawtrail events list` shows them.
    public static let domain = EventCatalog(
        types: AccountEvents.all + PetEvents.all + BookingEvents.all + VetEvents.all + CatalogEvents.all
            + InventoryEvents.all + CartEvents.all + FavouriteEvents.all + OrderEvents.all + POSEvents.all
            + MessagingEvents.all + SettingsEvents.all)

    /// The entries, in registration order.
    public let entries: [Entry]
    private let byType: [String: any DomainEvent.Type]

    /// Creates a catalog; type names must be unique.
    public init(types: [any DomainEvent.Type]) {
        entries = types.map {
            Entry(
                type: $0.eventType, schemaVersion: $0.schemaVersion, area: $0.area, summary: $0.summary,
                fields: $0.schemaFields, eventType: $0)
        }
        var byType: [String: any DomainEvent.Type] = [:]
        for t in types {
            precondition(byType.updateValue(t, forKey: t.eventType) == nil, "event type \(t.eventType) registered twice")
        }
        self.byType = byType
    }

    /// The Swift type of a type name, `nil` when the catalog does not hold it.
    public func eventType(named name: String) -> (any DomainEvent.Type)? {
        byType[name]
    }

    /// Decodes a stored event of the catalog.
    ///
    /// - Parameters:
    ///   - type: The stored type name.
    ///   - data: The stored bytes.
    /// - Returns: The event, or `nil` when the type is not in the catalog or the data is not domain-encoded
    ///   (a raw event appended with `pawtrail log append`).
    /// - Throws: ``FieldError`` when a catalog event's bytes are malformed.
    public func decode(type: String, data: [UInt8]) throws(FieldError) -> (any DomainEvent)? {
        guard let t = byType[type], DomainEventCodec.isDomainEncoded(data) else { return nil }
        return try t.decoded(from: data)
    }

    /// A catalog event's data given as JSON (as `log read --json` shows it), in the domain's binary encoding, so that
    /// an event appended by hand reads like one a command appended.
    ///
    /// - Parameters:
    ///   - type: The event's type name.
    ///   - json: Its fields.
    /// - Returns: The encoded data, `nil` when the type is not in the catalog (a raw event, kept as JSON).
    /// - Throws: ``FieldError`` naming the field that is missing, malformed or unknown.
    public func encode(type: String, json: JSONValue) throws(FieldError) -> [UInt8]? {
        guard let t = byType[type] else { return nil }
        return try t.encoded(fromJSON: json)
    }

    /// The JSON of a stored event's data for people and scripts.
    ///
    /// - Returns: The fields as an object, `nil` when the event is not a domain-encoded catalog event.
    /// - Throws: ``FieldError`` when a catalog event's bytes are malformed.
    public func json(type: String, data: [UInt8]) throws(FieldError) -> JSONValue? {
        try decode(type: type, data: data).map { JSONFieldWriter.json($0) }
    }
}

extension DomainEvent {
    /// The event read from its JSON fields, encoded.
    static func encoded(fromJSON json: JSONValue) throws(FieldError) -> [UInt8] {
        DomainEventCodec.encode(try JSONFieldReader.read(Self.self, from: json))
    }

    /// The fields of the type's current schema.
    public static var schemaFields: [FieldDescriptor] { SchemaRecorder.fields(of: Self.self) }
}
