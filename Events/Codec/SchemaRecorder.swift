public import EventLog

/// A reader that answers every field with a placeholder and records the fields asked for: running a type's
/// `init(reading:)` through it yields the type's field list, so the catalog and the command line's options can
/// never disagree with the code that reads them.
public struct SchemaRecorder: FieldReader {
    /// The fields, in the order read.
    public private(set) var fields: [FieldDescriptor] = []

    /// The fields of a type.
    public static func fields<T: FieldCodable>(of type: T.Type) -> [FieldDescriptor] {
        var recorder = SchemaRecorder()
        // Validation inside an init may reject the placeholders; by then every field has been asked for, or the
        // type checks values before reading them all, which the catalog test catches.
        _ = try? T(reading: &recorder)
        return recorder.fields
    }

    private mutating func note(_ key: String, _ kind: FieldKind) {
        fields.append(FieldDescriptor(key: key, kind: kind))
    }

    public mutating func string(_ key: String) throws(FieldError) -> String {
        note(key, .string)
        return "x"
    }

    public mutating func optionalString(_ key: String) throws(FieldError) -> String? {
        note(key, .optional(.string))
        return nil
    }

    public mutating func int(_ key: String) throws(FieldError) -> Int64 {
        note(key, .int)
        return 1
    }

    public mutating func optionalInt(_ key: String) throws(FieldError) -> Int64? {
        note(key, .optional(.int))
        return nil
    }

    public mutating func bool(_ key: String) throws(FieldError) -> Bool {
        note(key, .bool)
        return false
    }

    public mutating func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        note(key, .timestamp)
        return Timestamp(microsecondsSinceEpoch: 0)
    }

    public mutating func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        note(key, .optional(.timestamp))
        return nil
    }

    public mutating func money(_ key: String) throws(FieldError) -> Money {
        note(key, .money)
        return Money(1, "USD")
    }

    public mutating func optionalMoney(_ key: String) throws(FieldError) -> Money? {
        note(key, .optional(.money))
        return nil
    }

    public mutating func strings(_ key: String) throws(FieldError) -> [String] {
        note(key, .strings)
        return []
    }

    public mutating func choice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C {
        note(key, .choice(C.rawValues))
        return C.allCases.first!
    }

    public mutating func optionalChoice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C? {
        note(key, .optional(.choice(C.rawValues)))
        return nil
    }

    public mutating func records<R: FieldCodable>(_ key: String, _ type: R.Type) throws(FieldError) -> [R] {
        note(key, .records(Self.fields(of: R.self)))
        return []
    }
}
