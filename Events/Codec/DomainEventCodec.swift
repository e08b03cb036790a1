import EventLog
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
        let version = UInt64(type(of: event).schemaVersion)
        if let subject = event.erasesPersonalDataOf ?? event.personalDataSubject {
            var w = BinaryFieldWriter()
            event.write(to: &w)
            let content: PersonalSection.Content = event.erasesPersonalDataOf != nil ? .erasesSubject : .plain(w.personalValues)
            precondition(event.erasesPersonalDataOf == nil || w.personalValues.isEmpty, "\(event.eventType) erases its subject and carries personal values")
            return PersonalSection(subject: subject, content: content).data(schemaVersion: version, body: w.bytes)
        }
        var w = BinaryFieldWriter()
        w.varint(UInt64(marker))
        w.varint(version)
        event.write(to: &w)
        precondition(w.personalValues.isEmpty, "\(event.eventType) writes personal values but names no subject")
        return w.bytes
    }

    /// Whether data is in this encoding rather than JSON text: with or without a personal section.
    public static func isDomainEncoded(_ data: [UInt8]) -> Bool {
        data.first == marker || data.first == PersonalSection.marker
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
        var r = try reader(E.self, for: data, referencing: nil)
        return try read(E.self, from: &r.reader, version: r.version)
    }

    /// Decodes an event with each personal value read as a token naming it (``PersonalReference``) instead of the
    /// value, whether the event's section is open, sealed or erased: what read models that keep no personal data
    /// fold.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - data: The stored bytes.
    ///   - position: The event's position in the log, which the tokens name.
    /// - Returns: The event, and how many personal values it read (none: the event is the same as decoded plain).
    /// - Throws: As ``decode(_:from:)``.
    public static func decode<E: DomainEvent>(
        _ type: E.Type, from data: [UInt8], referencingPersonalValuesAt position: UInt64
    ) throws(FieldError) -> (event: E, personalValues: Int) {
        var r = try reader(E.self, for: data, referencing: position)
        let event = try read(E.self, from: &r.reader, version: r.version)
        return (event, r.reader.personalOrdinal)
    }

    /// The personal values of an event, in the order its decoder reads them (``PersonalReference/ordinal``): from
    /// data whose section is open (or erased, each value then reads as erased).
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - data: The bytes as the store hands them out, its section opened.
    /// - Returns: The values.
    /// - Throws: As ``decode(_:from:)``.
    public static func personalValues<E: DomainEvent>(of type: E.Type, from data: [UInt8]) throws(FieldError) -> [String] {
        var r = try reader(E.self, for: data, referencing: nil)
        r.reader.capturedPersonalValues = []
        _ = try read(E.self, from: &r.reader, version: r.version)
        return r.reader.capturedPersonalValues ?? []
    }

    private static func reader<E: DomainEvent>(
        _ type: E.Type, for data: [UInt8], referencing position: UInt64?
    ) throws(FieldError) -> (reader: BinaryFieldReader, version: UInt64) {
        guard isDomainEncoded(data) else {
            throw FieldError(field: "", message: "\(E.eventType) data is not in the domain's binary encoding")
        }
        var r: BinaryFieldReader
        let version: UInt64
        if data.first == PersonalSection.marker {
            guard let (layout, section) = PersonalSection.parse(data) else {
                throw FieldError(field: "", message: "\(E.eventType) data has a malformed personal section")
            }
            r = BinaryFieldReader(Array(data[layout.body]))
            if let position {
                r.personalValues = .references(position: position, inline: false)
            } else {
                switch section.content {
                case .plain(let values): r.personalValues = .section(values)
                case .erased: r.personalValues = .erased
                case .erasesSubject: r.personalValues = .section([])
                case .sealed:
                    throw FieldError(field: "", message: "\(E.eventType) data is still sealed: it was read past the store's keys")
                }
            }
            version = layout.schemaVersion
        } else {
            r = BinaryFieldReader(data, offset: 1)
            if let position { r.personalValues = .references(position: position, inline: true) }
            version = try r.varint("schemaVersion")
        }
        return (r, version)
    }

    private static func read<E: DomainEvent>(_ type: E.Type, from r: inout BinaryFieldReader, version: UInt64) throws(FieldError) -> E {
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
            throw FieldError(field: "", message: "\(E.eventType) data has bytes after its last field, from byte \(r.offset)")
        }
        return event
    }
}
