extension JSONValue {
    /// Parses one JSON document into a value tree, after the strict validation of ``JSONScanner``.
    ///
    /// Integers that fit `Int64` (or, when positive, `UInt64`) become ``int(_:)`` or ``uint(_:)``; any other
    /// number keeps its exact spelling as ``raw(_:)``, so no number is silently rounded.
    ///
    /// - Parameter bytes: The document.
    /// - Returns: The value.
    /// - Throws: ``JSONSyntaxError`` for invalid JSON.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let range = try JSONScanner.validate(bytes).range
        var parser = TreeBuilder(bytes: bytes, i: range.lowerBound)
        return parser.value()
    }

    /// The member of an object with a key, `nil` for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The members of an object, `nil` for other values.
    public var objectPairs: [Pair]? {
        if case .object(let pairs) = self { return pairs }
        return nil
    }

    /// The kind of the value, for messages.
    public var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool(let b): b ? .true : .false
        case .int, .uint: .number
        case .string: .string
        case .array: .array
        case .object: .object
        case .raw(let bytes):
            switch bytes.first {
            case UInt8(ascii: "{"): .object
            case UInt8(ascii: "["): .array
            case UInt8(ascii: "\""): .string
            case UInt8(ascii: "t"): .true
            case UInt8(ascii: "f"): .false
            case UInt8(ascii: "n"): .null
            default: .number
            }
        }
    }
}

/// Builds the tree of an already validated document, so it needs no error paths of its own.
private struct TreeBuilder {
    let bytes: [UInt8]
    var i: Int

    mutating func skipWhitespace() {
        while i < bytes.count, JSONScanner.isWhitespace(bytes[i]) { i += 1 }
    }

    mutating func value() -> JSONValue {
        skipWhitespace()
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var pairs: [JSONValue.Pair] = []
            skipWhitespace()
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(pairs)
            }
            while true {
                skipWhitespace()
                let key = string()
                skipWhitespace()
                i += 1  // ':'
                pairs.append(JSONValue.Pair(key: key, value: value()))
                skipWhitespace()
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "}") { return .object(pairs) }
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                items.append(value())
                skipWhitespace()
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "]") { return .array(items) }
            }
        case UInt8(ascii: "\""):
            return .string(string())
        case UInt8(ascii: "t"):
            i += 4
            return .bool(true)
        case UInt8(ascii: "f"):
            i += 5
            return .bool(false)
        case UInt8(ascii: "n"):
            i += 4
            return .null
        default:
            let start = i
            var integral = true
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    integral = false
                } else if !(c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || (c >= 48 && c <= 57)) {
                    break
                }
                i += 1
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if integral, let v = Int64(text) { return .int(v) }
            if integral, let v = UInt64(text) { return .uint(v) }
            return .raw(Array(bytes[start..<i]))
        }
    }

    mutating func string() -> String {
        let start = i
        i += 1
        while bytes[i] != UInt8(ascii: "\"") {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        i += 1
        return JSONScanner.decodeString(bytes, start..<i)
    }
}
