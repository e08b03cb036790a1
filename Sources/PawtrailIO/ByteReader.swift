/// Why a binary record could not be read.
public struct ByteReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// The offset within the record.
    public var offset: Int

    /// Creates an error.
    public init(reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason) at byte \(offset)" }
}

/// Reads little-endian binary records from a buffer, throwing on short or malformed input (never trapping).
public struct ByteReader {
    /// The buffer being read; the caller keeps it alive.
    public let buffer: UnsafeRawBufferPointer
    /// The next byte to read.
    public var offset: Int

    /// Starts reading a buffer.
    @inlinable
    public init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    /// Bytes left.
    @inlinable
    public var remaining: Int { buffer.count - offset }
    /// Whether every byte was read.
    @inlinable
    public var isAtEnd: Bool { offset >= buffer.count }

    /// Reads a fixed-width little-endian integer.
    @inlinable
    public mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(ByteReaderError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw ByteReaderError(reason: "record ends early", offset: offset) }
        let v = T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += size
        return v
    }

    /// Reads an unsigned LEB128 varint.
    @inlinable
    public mutating func readVarint() throws(ByteReaderError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count else { throw ByteReaderError(reason: "varint ends early", offset: offset) }
            let b = buffer[offset]
            offset += 1
            // The tenth byte may only carry bit 63; anything more does not fit in 64 bits.
            guard shift < 63 || (shift == 63 && b <= 1) else {
                throw ByteReaderError(reason: "varint too long", offset: offset)
            }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    /// Reads a zigzag signed varint.
    @inlinable
    public mutating func readSignedVarint() throws(ByteReaderError) -> Int64 {
        let u = try readVarint()
        return Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1)
    }

    /// Reads a varint length that must fit in the rest of the buffer.
    @inlinable
    public mutating func readLength() throws(ByteReaderError) -> Int {
        let n = try readVarint()
        guard n <= UInt64(remaining) else { throw ByteReaderError(reason: "length \(n) runs past the record", offset: offset) }
        return Int(n)
    }

    /// Reads `count` raw bytes.
    @inlinable
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw ByteReaderError(reason: "record ends early", offset: offset) }
        let out = [UInt8](UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)]))
        offset += count
        return out
    }

    /// Reads `count` raw bytes as a view into the buffer.
    @inlinable
    public mutating func readView(_ count: Int) throws(ByteReaderError) -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw ByteReaderError(reason: "record ends early", offset: offset) }
        let out = UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
        offset += count
        return out
    }

    /// Reads a varint length then that many bytes.
    @inlinable
    public mutating func readLengthPrefixedBytes() throws(ByteReaderError) -> [UInt8] {
        try readBytes(try readLength())
    }

    /// Reads a varint length then that many bytes as UTF-8, which must be valid.
    @inlinable
    public mutating func readLengthPrefixedString() throws(ByteReaderError) -> String {
        let view = try readView(try readLength())
        guard let s = String(validating: view, as: UTF8.self) else {
            throw ByteReaderError(reason: "invalid UTF-8", offset: offset)
        }
        return s
    }
}
