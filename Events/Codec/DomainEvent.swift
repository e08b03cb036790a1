public import PawtrailJSON

/// An event of the pet-care domain: a value with a stable type name and a schema version, stored in the log in
/// the compact binary encoding of ``DomainEventCodec`` and shown to people and scripts as JSON.
///
/// # Conformance requirements
/// - `eventType` never changes once events of the type have been written.
/// - A change to the fields bumps `schemaVersion`, and ``upcast(from:reading:)`` learns to read every older
///   version, so the log is never rewritten.
/// - `init(reading:)` only reads: validation belongs to the decision that creates the event.
public protocol DomainEvent: FieldCodable, Equatable {
    /// The stable type name written to the log (`PetAdded`).
    static var eventType: String { get }
    /// The current schema version, from 1.
    static var schemaVersion: Int { get }
    /// The area of the catalog (`accounts`, `pets`, ...).
    static var area: String { get }
    /// One sentence for `pawtrail events list`.
    static var summary: String { get }

    /// Reads data written by an older schema version and turns it into the current shape.
    ///
    /// - Parameters:
    ///   - version: The version the data was written with, below ``schemaVersion``.
    ///   - reader: A reader at the first field.
    /// - Returns: The event in the current shape.
    /// - Throws: ``FieldError`` when the version is unknown or the data malformed.
    static func upcast(from version: Int, reading reader: inout BinaryFieldReader) throws(FieldError) -> Self

    /// Decodes this type from the log's bytes (see ``DomainEventCodec``). Leave it to the default: being a
    /// requirement, each event type's conformance gets the decoder compiled for that type, where a call through
    /// `any DomainEvent.Type` would otherwise run the generic code.
    static func decoded(from data: [UInt8]) throws(FieldError) -> Self

    /// Decodes this type with its personal values read as tokens naming them (see
    /// ``DomainEventCodec/decode(_:from:referencingPersonalValuesAt:)``). Leave it to the default.
    static func decoded(from data: [UInt8], referencingPersonalValuesAt position: UInt64) throws(FieldError) -> (event: Self, personalValues: Int)

    /// This type's personal values in an event's opened bytes (see ``DomainEventCodec/personalValues(of:from:)``).
    /// Leave it to the default.
    static func personalValues(in data: [UInt8]) throws(FieldError) -> [String]

    /// The account whose key seals this event's personal values (``FieldWriter/personal(_:_:)``), or `nil` when
    /// it has none. An event that writes a personal value must name one.
    var personalDataSubject: String? { get }

    /// The account whose personal data this event erases, for good, once it is appended (`AccountDeleted`).
    var erasesPersonalDataOf: String? { get }
}

extension DomainEvent {
    public static var schemaVersion: Int { 1 }

    public static func upcast(from version: Int, reading reader: inout BinaryFieldReader) throws(FieldError) -> Self {
        throw FieldError(field: "", message: "\(eventType) has no schema version \(version)")
    }

    public var personalDataSubject: String? { nil }

    public var erasesPersonalDataOf: String? { nil }

    /// The type name of this event's type.
    public var eventType: String { Self.eventType }

    /// Decodes this type from the log's bytes (see ``DomainEventCodec``).
    public static func decoded(from data: [UInt8]) throws(FieldError) -> Self {
        try DomainEventCodec.decode(Self.self, from: data)
    }

    public static func decoded(
        from data: [UInt8], referencingPersonalValuesAt position: UInt64
    ) throws(FieldError) -> (event: Self, personalValues: Int) {
        try DomainEventCodec.decode(Self.self, from: data, referencingPersonalValuesAt: position)
    }

    public static func personalValues(in data: [UInt8]) throws(FieldError) -> [String] {
        try DomainEventCodec.personalValues(of: Self.self, from: data)
    }

    /// Reads this type from a JSON object.
    public static func fromJSON(_ value: JSONValue) throws(FieldError) -> Self {
        try JSONFieldReader.read(Self.self, from: value)
    }
}
