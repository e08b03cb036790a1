public import EventLog

/// A value described once, field by field, and read or written through any ``FieldReader`` or ``FieldWriter``:
/// the log's binary encoding, JSON for people and scripts, the command line, and the catalog's field list all
/// come from the same two functions.
///
/// # Conformance requirements
/// `init(reading:)` and `write(to:)` must visit the same fields in the same order with the same kinds: the
/// binary encoding has no keys. The catalog round-trip test checks every registered type.
public protocol FieldCodable: Sendable {
    /// Reads the value's fields.
    ///
    /// - Parameter reader: The source.
    /// - Throws: ``FieldError`` naming the missing or malformed field.
    init(reading reader: inout some FieldReader) throws(FieldError)

    /// Writes the value's fields.
    ///
    /// - Parameter writer: The destination.
    func write(to writer: inout some FieldWriter)
}

/// Reads fields by key (JSON, the command line) or in order (the binary encoding).
public protocol FieldReader {
    mutating func string(_ key: String) throws(FieldError) -> String
    mutating func optionalString(_ key: String) throws(FieldError) -> String?
    mutating func int(_ key: String) throws(FieldError) -> Int64
    mutating func optionalInt(_ key: String) throws(FieldError) -> Int64?
    mutating func bool(_ key: String) throws(FieldError) -> Bool
    mutating func timestamp(_ key: String) throws(FieldError) -> Timestamp
    mutating func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp?
    mutating func money(_ key: String) throws(FieldError) -> Money
    mutating func optionalMoney(_ key: String) throws(FieldError) -> Money?
    mutating func strings(_ key: String) throws(FieldError) -> [String]
    /// Reads a personal value (a name, an email, a phone, an address, a message's text): in the log's encoding it
    /// sits in the event's personal section, sealed under its subject's key (``EventLog/PersonalSection``).
    mutating func personal(_ key: String) throws(FieldError) -> String
    /// Reads an optional personal value.
    mutating func optionalPersonal(_ key: String) throws(FieldError) -> String?
    mutating func choice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C
    mutating func optionalChoice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C?
    mutating func records<R: FieldCodable>(_ key: String, _ type: R.Type) throws(FieldError) -> [R]
    /// Reads a dictionary written by ``FieldWriter/keyed(_:_:)`` (records of ``Keyed`` entries); a default reads
    /// the records and builds the dictionary from them.
    mutating func keyed<V: FieldCodable>(_ key: String, _ type: V.Type) throws(FieldError) -> [String: V]
}

/// Writes fields; the binary writer ignores the keys.
public protocol FieldWriter {
    mutating func string(_ key: String, _ value: String)
    mutating func optionalString(_ key: String, _ value: String?)
    mutating func int(_ key: String, _ value: Int64)
    mutating func optionalInt(_ key: String, _ value: Int64?)
    mutating func bool(_ key: String, _ value: Bool)
    mutating func timestamp(_ key: String, _ value: Timestamp)
    mutating func optionalTimestamp(_ key: String, _ value: Timestamp?)
    mutating func money(_ key: String, _ value: Money)
    mutating func optionalMoney(_ key: String, _ value: Money?)
    mutating func strings(_ key: String, _ value: [String])
    /// Writes a personal value: an event that writes one names its subject (``DomainEvent/personalDataSubject``).
    mutating func personal(_ key: String, _ value: String)
    /// Writes an optional personal value.
    mutating func optionalPersonal(_ key: String, _ value: String?)
    mutating func choice<C: FieldChoice>(_ key: String, _ value: C)
    mutating func optionalChoice<C: FieldChoice>(_ key: String, _ value: C?)
    mutating func records<R: FieldCodable>(_ key: String, _ value: [R])
    /// A dictionary, as records of its key and the value's fields, sorted by key.
    mutating func keyed<V: FieldCodable>(_ key: String, _ value: [String: V])
}

/// A closed set of string values (a species, a status, a role).
public protocol FieldChoice: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

extension FieldChoice {
    /// Parses a raw value, or explains the accepted ones.
    ///
    /// - Parameters:
    ///   - raw: The text.
    ///   - key: The field's key, for the error.
    /// - Returns: The case.
    /// - Throws: ``FieldError`` listing the accepted values.
    @inlinable
    public static func parse(_ raw: String, key: String) throws(FieldError) -> Self {
        guard let value = Self(rawValue: raw) else { throw notOneOf(raw, key: key) }
        return value
    }

    @usableFromInline
    static func notOneOf(_ raw: String, key: String) -> FieldError {
        let accepted = allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return FieldError(field: key, message: "'\(raw)' is not one of \(accepted)")
    }

    /// The accepted raw values, in declaration order.
    public static var rawValues: [String] { allCases.map(\.rawValue) }
}

extension FieldWriter {
    public mutating func choice<C: FieldChoice>(_ key: String, _ value: C) {
        string(key, value.rawValue)
    }

    public mutating func optionalChoice<C: FieldChoice>(_ key: String, _ value: C?) {
        optionalString(key, value?.rawValue)
    }
}

extension FieldReader {
    /// Everywhere but the log's encoding, a personal value is a string.
    public mutating func personal(_ key: String) throws(FieldError) -> String { try string(key) }
    /// Everywhere but the log's encoding, an optional personal value is an optional string.
    public mutating func optionalPersonal(_ key: String) throws(FieldError) -> String? { try optionalString(key) }
}

extension FieldWriter {
    /// Everywhere but the log's encoding, a personal value is a string.
    public mutating func personal(_ key: String, _ value: String) { string(key, value) }
    /// Everywhere but the log's encoding, an optional personal value is an optional string.
    public mutating func optionalPersonal(_ key: String, _ value: String?) { optionalString(key, value) }
}
