/// One entry of a dictionary as a record: its key, then the value's own fields.
public struct Keyed<Value: FieldCodable>: FieldCodable {
    public var key: String
    public var value: Value

    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        key = try r.string("key")
        value = try Value(reading: &r)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("key", key)
        value.write(to: &w)
    }
}

/// A single integer as a record, for dictionaries of counts.
public struct Count: FieldCodable, Hashable {
    public var count: Int64

    public init(_ count: Int64) {
        self.count = count
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        count = try r.int("count")
    }

    public func write(to w: inout some FieldWriter) {
        w.int("count", count)
    }
}

extension FieldReader {
    /// Reads a dictionary written by ``FieldWriter/keyed(_:_:)``.
    public mutating func keyed<V: FieldCodable>(_ key: String, _ type: V.Type) throws(FieldError) -> [String: V] {
        var out: [String: V] = [:]
        for entry in try records(key, Keyed<V>.self) { out[entry.key] = entry.value }
        return out
    }

    /// Reads a dictionary of counts written by ``FieldWriter/counts(_:_:)``.
    public mutating func counts(_ key: String) throws(FieldError) -> [String: Int64] {
        try keyed(key, Count.self).mapValues(\.count)
    }
}

extension FieldWriter {
    /// Writes a dictionary as records sorted by key, so equal dictionaries have equal bytes (the default for
    /// writers without a faster way; ``BinaryFieldWriter`` writes the entries in place).
    public mutating func keyed<V: FieldCodable>(_ key: String, _ value: [String: V]) {
        // Sort the keys alone, then fetch each value once: sorting (key, value) pairs would move every value
        // many times, which for big records (an order with its lines) cost more than writing them.
        records(key, SortedKeys.of(value.keys).map { Keyed(key: $0, value: value[$0]!) })
    }

    /// Writes a dictionary of counts.
    public mutating func counts(_ key: String, _ value: [String: Int64]) {
        keyed(key, value.mapValues { Count($0) })
    }
}
