/// Builds little-endian binary records into a growable byte array.
@frozen
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Starts an empty writer.
    ///
    /// - Parameter capacity: Bytes to reserve.
    @inlinable
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written.
    @inlinable
    public var count: Int { bytes.count }

    /// Appends a fixed-width little-endian integer.
    @inlinable @inline(__always)
    public mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends an unsigned LEB128 varint.
    @inlinable @inline(__always)
    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends a signed varint (zigzag).
    @inlinable
    public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends raw bytes.
    @inlinable
    public mutating func write(bytes other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// Appends raw bytes.
    @inlinable
    public mutating func write(bytes other: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: other)
    }

    /// Appends a varint length then the bytes.
    @inlinable
    public mutating func writeLengthPrefixed(_ other: [UInt8]) {
        writeVarint(UInt64(other.count))
        bytes.append(contentsOf: other)
    }

    /// Appends a varint length then the string's UTF-8.
    @inlinable
    public mutating func writeLengthPrefixed(_ string: String) {
        var s = string
        s.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Overwrites a fixed-width integer at a byte offset already written.
    @inlinable
    public mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (i, b) in raw.enumerated() { bytes[offset + i] = b }
        }
    }
}
