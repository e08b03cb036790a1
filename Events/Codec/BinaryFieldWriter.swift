public import EventLog

/// Writes fields in the log's compact binary encoding: no keys, integers as zigzag LEB128 varints, strings as
/// a varint length and UTF-8, absent optionals as one zero byte, lists as a varint count and their items.
public struct BinaryFieldWriter: FieldWriter, Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]
    /// The personal values written so far, in order: the body holds each one's index
    /// (``EventLog/PersonalSection``).
    public var personalValues: [String] = []

    /// Creates a writer with room for a typical event.
    @inlinable
    public init() {
        bytes = []
        bytes.reserveCapacity(128)
    }

    /// Creates a writer with room for `capacity` bytes: a large state written again at about its last size then
    /// grows without copying itself over and over.
    @inlinable
    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(max(128, capacity))
    }

    /// Appends an unsigned LEB128 varint.
    @inlinable
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    @inlinable mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inlinable mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    @inlinable
    public mutating func string(_ key: String, _ value: String) { raw(value) }

    @inlinable
    public mutating func optionalString(_ key: String, _ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        raw(value)
    }

    public mutating func personal(_ key: String, _ value: String) {
        varint(UInt64(personalValues.count))
        personalValues.append(value)
    }

    public mutating func optionalPersonal(_ key: String, _ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        personal(key, value)
    }

    @inlinable
    public mutating func int(_ key: String, _ value: Int64) { signed(value) }

    @inlinable
    public mutating func optionalInt(_ key: String, _ value: Int64?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        signed(value)
    }

    @inlinable
    public mutating func bool(_ key: String, _ value: Bool) { bytes.append(value ? 1 : 0) }

    @inlinable
    public mutating func timestamp(_ key: String, _ value: Timestamp) { signed(value.microsecondsSinceEpoch) }

    @inlinable
    public mutating func optionalTimestamp(_ key: String, _ value: Timestamp?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        signed(value.microsecondsSinceEpoch)
    }

    @inlinable
    public mutating func money(_ key: String, _ value: Money) {
        signed(value.minorUnits)
        raw(value.currency)
    }

    @inlinable
    public mutating func optionalMoney(_ key: String, _ value: Money?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        money(key, value)
    }

    @inlinable
    public mutating func strings(_ key: String, _ value: [String]) {
        varint(UInt64(value.count))
        for s in value { raw(s) }
    }

    /// Writes the same bytes as records of ``Keyed`` entries, without building them: each value is written where it
    /// is, which matters for the large states checkpoints hold.
    @inlinable
    public mutating func keyed<V: FieldCodable>(_ key: String, _ value: [String: V]) {
        varint(UInt64(value.count))
        // Most nested dictionaries hold none or one entry: no keys to sort then.
        if value.count == 1, let (k, v) = value.first {
            raw(k)
            v.write(to: &self)
            return
        }
        for k in SortedKeys.of(value.keys) {
            raw(k)
            value[k]!.write(to: &self)
        }
    }

    @inlinable
    public mutating func records<R: FieldCodable>(_ key: String, _ value: [R]) {
        varint(UInt64(value.count))
        // Through the buffer, each record is written where it is, not copied out (and its strings retained) first.
        value.withUnsafeBufferPointer { records in
            for i in records.indices { records[i].write(to: &self) }
        }
    }
}
