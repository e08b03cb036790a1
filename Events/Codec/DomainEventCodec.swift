import PawtrailJSON


/// The bytes a domain event is stored as: a 0x00 marker (JSON text never starts with it, so raw events
/// appended with `pawtrail log append` stay apart), the schema version as a varint, then the fields in the
/// binary encoding of ``BinaryFieldWriter``.
public enum DomainEventCodec {
    /// The first byte of every domain event's data.
    public static let marker: UInt8 = 0

    /// Encodes an event at its current schema version.
    ///
    /// - Parameter event: The event.
    /// - Returns: The bytes for ``EventLog/ProposedEvent/data``.
    public static func encode(_ event: some DomainEvent) -> [UInt8] {
        var w = BinaryFieldWriter()
        w.varint(UInt64(marker))
        w.varint(UInt64(type(of: event).schemaVersion))
        event.write(to: &w)
        return w.bytes
    }

    /// Whether data is in this encoding rather than JSON text.
    public static func isDomainEncoded(_ data: [UInt8]) -> Bool {
        data.first == marker
    }

    /// Decodes an event, upcasting an older schema version.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - data: The stored bytes.
    /// - Returns: The event in its current shape.
    /// - Throws: ``FieldError`` for bytes that are not this encoding, a newer schema version than this build
    ///   knows, malformed fields, or bytes left over.
    public static func decode<E: DomainEvent>(_ type: E.Type, from data: [UInt8]) throws(FieldError) -> E {
        guard isDomainEncoded(data) else {
            throw FieldError(field: "", message: "\(E.eventType) data is not in the domain's binary encoding")
        }
        var r = BinaryFieldReader(data, offset: 1)
        let version = try r.varint("schemaVersion")
        let event: E
        if version == UInt64(E.schemaVersion) {
            event = try E(reading: &r)
        } else if version >= 1 && version < UInt64(E.schemaVersion) {
            event = try E.upcast(from: Int(version), reading: &r)
        } else {
            throw FieldError(
                field: "", message: "\(E.eventType) schema version \(version) is not known to this build (it knows 1...\(E.schemaVersion))")
        }
        guard r.isAtEnd else {
            throw FieldError(field: "", message: "\(E.eventType) data has \(data.count - r.offset) bytes after its last field")
        }
        return event
    }
}
