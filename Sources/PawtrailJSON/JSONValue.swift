/// A JSON value to print: objects keep their key order, and `raw` embeds bytes that are already valid JSON
/// (event data) untouched.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)
    case array([JSONValue])
    case object([Pair])
    /// Valid JSON text, embedded as is (event data, a pre-formatted number).
    case raw([UInt8])

    /// One member of an object.
    public struct Pair: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key-value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Pair(key: $0.key, value: $0.value) })
    }

    /// A number or `null`.
    public static func uint(_ v: UInt64?) -> JSONValue { v.map { .uint($0) } ?? .null }

    /// A string or `null`.
    public static func string(_ v: String?) -> JSONValue { v.map { .string($0) } ?? .null }

    /// The compact serialization (no spaces), as one line.
    public var serialized: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact serialization to a buffer.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case .int(let v): out.append(contentsOf: Array(String(v).utf8))
        case .uint(let v): out.append(contentsOf: Array(String(v).utf8))
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .raw(let bytes): out.append(contentsOf: bytes)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (n, pair) in pairs.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(pair.key, to: &out)
                out.append(UInt8(ascii: ":"))
                pair.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
