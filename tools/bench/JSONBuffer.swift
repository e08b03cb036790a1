import BenchSupport
import EventLog
import Foundation

/// A minimal JSON writer into a byte buffer: fast enough to build hundreds of thousands of events in a couple of
/// seconds (Foundation's encoders would dominate the run), and fully deterministic in key order and spacing.
///
/// The caller writes the structure (`open`, `key`, values, `close`); commas are inserted automatically.
struct JSONBuffer {
    /// The JSON text written so far.
    private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current container needs a leading comma.
    private var needsComma = false

    /// Creates an empty buffer with room for a typical event.
    init(capacity: Int = 640) {
        bytes.reserveCapacity(capacity)
    }

    private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Opens an object (as a value: after a key, in an array, or at top level).
    mutating func openObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the current object.
    mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array value.
    mutating func openArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the current array.
    mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the value that follows takes no comma.
    mutating func key(_ name: String) {
        separator()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value, escaped.
    mutating func string(_ value: String) {
        separator()
        appendQuoted(value)
    }

    /// Writes an integer value.
    mutating func int(_ value: Int) {
        separator()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        separator()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes a UUID as a lowercase string (hand-formatted: `uuidString.lowercased()` costs a microsecond).
    mutating func uuid(_ value: UUID) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        Self.appendHex(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes an ISO-8601 UTC time string.
    mutating func time(_ value: Timestamp) {
        string(value.iso8601)
    }

    /// Splices already-encoded JSON (a value) in place.
    mutating func raw(_ json: [UInt8]) {
        separator()
        bytes.append(contentsOf: json)
    }

    /// `key` followed by a string value.
    mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// `key` followed by an integer value.
    mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    /// `key` followed by a UUID value.
    mutating func field(_ name: String, _ value: UUID) {
        key(name)
        uuid(value)
    }

    /// `key` followed by a time value.
    mutating func field(_ name: String, _ value: Timestamp) {
        key(name)
        time(value)
    }

    /// `key` followed by a Boolean value.
    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the canonical lowercase 8-4-4-4-12 form of a UUID.
    static func appendHex(_ value: UUID, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        withUnsafeBytes(of: value.uuid) { raw in
            digits.withUTF8Buffer { hex in
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
                    out.append(hex[Int(raw[i] >> 4)])
                    out.append(hex[Int(raw[i] & 15)])
                }
            }
        }
    }

    /// The lowercase string form of a UUID.
    static func lowercaseString(_ value: UUID) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        appendHex(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
