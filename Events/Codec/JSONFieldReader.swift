public import EventLog
public import PawtrailJSON

/// Reads fields from the members of a JSON object, by key, and rejects members no field asked for (a typo in
/// a key is an error, not a silently ignored value).
public struct JSONFieldReader: FieldReader {
    private let members: [String: JSONValue]
    private var used: Set<String> = []
    private let prefix: String

    /// Creates a reader over a JSON object.
    ///
    /// - Parameters:
    ///   - value: The object.
    ///   - prefix: Prepended to keys in errors (`lines[2].`).
    /// - Throws: ``FieldError`` when `value` is not an object or repeats a key.
    public init(_ value: JSONValue, prefix: String = "") throws(FieldError) {
        guard let pairs = value.objectPairs else {
            throw FieldError(field: String(prefix.dropLast()), message: "expected an object, found \(value.kind)")
        }
        var members: [String: JSONValue] = [:]
        for p in pairs {
            guard members.updateValue(p.value, forKey: p.key) == nil else {
                throw FieldError(field: prefix + p.key, message: "given more than once")
            }
        }
        self.members = members
        self.prefix = prefix
    }

    /// Reads a whole value and checks that no member was left unread.
    ///
    /// - Parameters:
    ///   - type: The type to read.
    ///   - value: The JSON object.
    ///   - ignoring: Keys that belong to an envelope around the fields (`command`, `as`).
    /// - Returns: The value.
    /// - Throws: ``FieldError`` for a missing, malformed or unknown field.
    public static func read<T: FieldCodable>(
        _ type: T.Type, from value: JSONValue, ignoring: Set<String> = []
    ) throws(FieldError) -> T {
        var reader = try JSONFieldReader(value)
        reader.used = ignoring
        let result = try T(reading: &reader)
        try reader.finish()
        return result
    }

    /// Fails when a member was not read by any field.
    public func finish() throws(FieldError) {
        if let unknown = members.keys.sorted().first(where: { !used.contains($0) }) {
            throw FieldError(field: prefix + unknown, message: "is not a field of this value")
        }
    }

    private mutating func member(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let v = members[key], v != .null else { return nil }
        return v
    }

    private mutating func required(_ key: String) throws(FieldError) -> JSONValue {
        guard let v = member(key) else { throw FieldError(field: prefix + key, message: "is missing") }
        return v
    }

    private func mismatch(_ key: String, _ expected: String, _ found: JSONValue) -> FieldError {
        FieldError(field: prefix + key, message: "expected \(expected), found \(found.kind)")
    }

    private func asString(_ key: String, _ v: JSONValue) throws(FieldError) -> String {
        guard case .string(let s) = v else { throw mismatch(key, "a string", v) }
        return s
    }

    private func asInt(_ key: String, _ v: JSONValue) throws(FieldError) -> Int64 {
        switch v {
        case .int(let n): return n
        case .string(let s):
            // The command line hands every value over as a string.
            guard let n = Int64(s) else { throw FieldError(field: prefix + key, message: "'\(s)' is not an integer") }
            return n
        case .uint:
            throw FieldError(field: prefix + key, message: "expected an integer between -2^63 and 2^63-1")
        case .raw(let bytes) where !bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }):
            // Digits only, but too many for 64 bits (99999999999999999999): out of range, not a fraction.
            throw FieldError(field: prefix + key, message: "expected an integer between -2^63 and 2^63-1")
        case .raw:
            throw FieldError(field: prefix + key, message: "expected an integer, found a number with a fraction or exponent")
        default: throw mismatch(key, "an integer", v)
        }
    }

    private func asTimestamp(_ key: String, _ v: JSONValue) throws(FieldError) -> Timestamp {
        let s = try asString(key, v)
        guard let t = Timestamp(iso8601: s) else {
            throw FieldError(field: prefix + key, message: "'\(s)' is not a UTC ISO-8601 time (2026-12-01T10:00:00Z)")
        }
        return t
    }

    private func asMoney(_ key: String, _ v: JSONValue) throws(FieldError) -> Money {
        if case .string(let s) = v {
            guard let m = Money(parsing: s) else {
                throw FieldError(field: prefix + key, message: "'\(s)' is not minor units and a currency (62000 BDT)")
            }
            return m
        }
        var r = try JSONFieldReader(v, prefix: prefix + key + ".")
        let amount = try r.int("amount")
        let currency = try r.string("currency")
        try r.finish()
        guard Money.isCurrencyCode(currency) else {
            throw FieldError(field: prefix + key + ".currency", message: "'\(currency)' is not an ISO 4217 code (BDT, USD)")
        }
        return Money(amount, currency)
    }

    public mutating func string(_ key: String) throws(FieldError) -> String { try asString(key, try required(key)) }

    public mutating func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let v = member(key) else { return nil }
        return try asString(key, v)
    }

    public mutating func int(_ key: String) throws(FieldError) -> Int64 { try asInt(key, try required(key)) }

    public mutating func optionalInt(_ key: String) throws(FieldError) -> Int64? {
        guard let v = member(key) else { return nil }
        return try asInt(key, v)
    }

    public mutating func bool(_ key: String) throws(FieldError) -> Bool {
        switch try required(key) {
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        case let v: throw mismatch(key, "true or false", v)
        }
    }

    public mutating func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        try asTimestamp(key, try required(key))
    }

    public mutating func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        guard let v = member(key) else { return nil }
        return try asTimestamp(key, v)
    }

    public mutating func money(_ key: String) throws(FieldError) -> Money { try asMoney(key, try required(key)) }

    public mutating func optionalMoney(_ key: String) throws(FieldError) -> Money? {
        guard let v = member(key) else { return nil }
        return try asMoney(key, v)
    }

    public mutating func strings(_ key: String) throws(FieldError) -> [String] {
        guard let v = member(key) else { return [] }
        guard case .array(let items) = v else { throw mismatch(key, "an array of strings", v) }
        var out: [String] = []
        for (n, item) in items.enumerated() { out.append(try asString("\(key)[\(n)]", item)) }
        return out
    }

    public mutating func choice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C {
        try C.parse(try string(key), key: prefix + key)
    }

    public mutating func optionalChoice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C? {
        guard let s = try optionalString(key) else { return nil }
        return try C.parse(s, key: prefix + key)
    }

    public mutating func records<R: FieldCodable>(_ key: String, _ type: R.Type) throws(FieldError) -> [R] {
        guard let v = member(key) else { return [] }
        let items: [JSONValue]
        switch v {
        case .array(let a): items = a
        case .string(let text):
            // The command line passes a list of records as JSON text.
            guard case .array(let a)? = try? JSONValue.parse(Array(text.utf8)) else {
                throw FieldError(field: prefix + key, message: "expected a JSON array of objects")
            }
            items = a
        default: throw mismatch(key, "an array of objects", v)
        }
        var out: [R] = []
        for (n, item) in items.enumerated() {
            var r = try JSONFieldReader(item, prefix: "\(prefix)\(key)[\(n)].")
            out.append(try R(reading: &r))
            try r.finish()
        }
        return out
    }
}
