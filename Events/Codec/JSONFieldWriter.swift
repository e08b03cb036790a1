public import EventLog
public import PawtrailJSON

/// Writes fields as the members of a JSON object, in declaration order; absent optionals are left out.
public struct JSONFieldWriter: FieldWriter {
    /// The members written so far.
    public private(set) var pairs: [JSONValue.Pair] = []

    /// Creates an empty writer.
    public init() {}

    /// The object written.
    public var object: JSONValue { .object(pairs) }

    /// The JSON object of a value.
    public static func json(_ value: some FieldCodable) -> JSONValue {
        var w = JSONFieldWriter()
        value.write(to: &w)
        return w.object
    }

    private mutating func put(_ key: String, _ value: JSONValue) {
        pairs.append(JSONValue.Pair(key: key, value: value))
    }

    static func money(_ m: Money) -> JSONValue {
        .object(["amount": .int(m.minorUnits), "currency": .string(m.currency)])
    }

    public mutating func string(_ key: String, _ value: String) { put(key, .string(value)) }
    public mutating func optionalString(_ key: String, _ value: String?) { if let value { put(key, .string(value)) } }
    public mutating func int(_ key: String, _ value: Int64) { put(key, .int(value)) }
    public mutating func optionalInt(_ key: String, _ value: Int64?) { if let value { put(key, .int(value)) } }
    public mutating func bool(_ key: String, _ value: Bool) { put(key, .bool(value)) }
    public mutating func timestamp(_ key: String, _ value: Timestamp) { put(key, .string(value.iso8601Compact)) }

    public mutating func optionalTimestamp(_ key: String, _ value: Timestamp?) {
        if let value { put(key, .string(value.iso8601Compact)) }
    }

    public mutating func money(_ key: String, _ value: Money) { put(key, Self.money(value)) }
    public mutating func optionalMoney(_ key: String, _ value: Money?) { if let value { put(key, Self.money(value)) } }
    public mutating func strings(_ key: String, _ value: [String]) { put(key, .array(value.map { .string($0) })) }

    public mutating func records<R: FieldCodable>(_ key: String, _ value: [R]) {
        put(key, .array(value.map { Self.json($0) }))
    }
}

extension Timestamp {
    /// ISO-8601 without a fraction when the time has whole seconds (`2026-12-01T10:00:00Z`), else with
    /// microseconds: what people type and read for slots and dates.
    public var iso8601Compact: String {
        let full = iso8601
        guard microsecondsSinceEpoch % 1_000_000 == 0 else { return full }
        return String(full.dropLast(8)) + "Z"
    }
}
