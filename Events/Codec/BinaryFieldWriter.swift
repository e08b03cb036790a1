public import EventLog

/// Writes fields in the log's compact binary encoding: no keys, integers as zigzag LEB128 varints, strings as
/// a varint length and UTF-8, absent optionals as one zero byte, lists as a varint count and their items.
public struct BinaryFieldWriter: FieldWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates a writer with room for a typical event.
    public init() {
        bytes = []
        bytes.reserveCapacity(128)
    }

    /// Appends an unsigned LEB128 varint.
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    private mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func string(_ key: String, _ value: String) { raw(value) }

    public mutating func optionalString(_ key: String, _ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        raw(value)
    }

    public mutating func int(_ key: String, _ value: Int64) { signed(value) }

    public mutating func optionalInt(_ key: String, _ value: Int64?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        signed(value)
    }

    public mutating func bool(_ key: String, _ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func timestamp(_ key: String, _ value: Timestamp) { signed(value.microsecondsSinceEpoch) }

    public mutating func optionalTimestamp(_ key: String, _ value: Timestamp?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        signed(value.microsecondsSinceEpoch)
    }

    public mutating func money(_ key: String, _ value: Money) {
        signed(value.minorUnits)
        raw(value.currency)
    }

    public mutating func optionalMoney(_ key: String, _ value: Money?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        money(key, value)
    }

    public mutating func strings(_ key: String, _ value: [String]) {
        varint(UInt64(value.count))
        for s in value { raw(s) }
    }

    /// Writes the same bytes as records of ``Keyed`` entries, without building them: each value is written where it
    /// is, which matters for the large states checkpoints hold.
    public mutating func keyed<V: FieldCodable>(_ key: String, _ value: [String: V]) {
        varint(UInt64(value.count))
        for k in value.keys.sorted() {
            raw(k)
            value[k]!.write(to: &self)
        }
    }

    public mutating func records<R: FieldCodable>(_ key: String, _ value: [R]) {
        varint(UInt64(value.count))
        for r in value { r.write(to: &self) }
    }
}
