public import Events

/// Where tables put the row versions of their changes, packed: every key and value in one byte buffer and a small
/// fixed-size entry per version, so that the millions of versions a rebuild writes cost no allocation each, and are
/// sorted by moving entries (see ``sortIntoStoredOrder()``).
public struct RowVersions: Sendable {
    /// One version: where its key and value lie in ``bytes``, and what ordering needs without reading them.
    public struct Entry: Sendable {
        public var keyStart: Int
        public var keyCount: Int32
        /// The value's length, -1 for an absent row.
        public var valueCount: Int32
        public var position: UInt64
        public var groupHash: UInt64
        public var table: UInt8
        public var keep: Bool

        /// Where the value starts (right after the key).
        public var valueStart: Int { keyStart + Int(keyCount) }
    }

    /// The keys and values, one after the other.
    public private(set) var buffer = BinaryFieldWriter(capacity: 0)
    /// The versions, in the order they were added.
    public internal(set) var entries: [Entry] = []

    public init() {}

    /// The bytes the versions hold, to decide when to write them out.
    public var byteCount: Int { buffer.bytes.count + entries.count * MemoryLayout<Entry>.stride }
    /// The bytes the versions' memory can hold without growing.
    public var capacityBytes: Int { buffer.bytes.capacity + entries.capacity * MemoryLayout<Entry>.stride }
    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// Adds a version of a record's row, encoding the record (`nil`: the row is absent from then on).
    ///
    /// - Parameters:
    ///   - position: The log position whose event left the row so.
    ///   - keep: Whether the version is kept for time travel.
    ///   - record: The row's record.
    ///   - key: Appends the row's key bytes (its table's id first; see ``RowKey``).
    public mutating func add<R: FieldCodable>(position: UInt64, keep: Bool, record: R?, key: (inout [UInt8]) -> Void) {
        let start = buffer.bytes.count
        key(&buffer.bytes)
        let keyCount = buffer.bytes.count - start
        var valueCount: Int32 = -1
        if let record {
            record.write(to: &buffer)
            valueCount = Int32(buffer.bytes.count - start - keyCount)
        }
        append(start, keyCount, valueCount, position, keep)
    }

    /// Adds a version.
    public mutating func add(_ v: RowVersion) {
        let start = buffer.bytes.count
        buffer.bytes.append(contentsOf: v.key.bytes)
        if let value = v.value { buffer.bytes.append(contentsOf: value) }
        append(start, v.key.bytes.count, v.value.map { Int32($0.count) } ?? -1, v.position, v.keep)
    }

    private mutating func append(_ start: Int, _ keyCount: Int, _ valueCount: Int32, _ position: UInt64, _ keep: Bool) {
        let (table, hash) = buffer.bytes.withUnsafeBytes { b -> (UInt8, UInt64) in
            let key = UnsafeRawBufferPointer(rebasing: b[start..<(start + keyCount)])
            return (key.first ?? 0, RowKey.hash(UnsafeRawBufferPointer(rebasing: key[..<(key.firstIndex(of: RowKey.separator) ?? key.count)])))
        }
        entries.append(Entry(keyStart: start, keyCount: Int32(keyCount), valueCount: valueCount, position: position, groupHash: hash, table: table, keep: keep))
    }

    /// Adds every version of another buffer, after these.
    public mutating func append(contentsOf other: RowVersions) {
        let shift = buffer.bytes.count
        buffer.bytes.append(contentsOf: other.buffer.bytes)
        entries.reserveCapacity(entries.count + other.entries.count)
        for var e in other.entries {
            e.keyStart += shift
            entries.append(e)
        }
    }

    /// Takes every version, leaving none.
    public mutating func take() -> RowVersions {
        defer { self = RowVersions() }
        return self
    }

    /// Removes every version, keeping the memory for the next ones when asked: a rebuild fills one buffer of a
    /// hundred megabytes or so again and again, and fresh memory of that size costs a page fault per 4 KiB.
    public mutating func removeAll(keepingCapacity keep: Bool) {
        buffer.bytes.removeAll(keepingCapacity: keep)
        entries.removeAll(keepingCapacity: keep)
    }

    /// A version as a value (for small numbers of versions: it copies its bytes).
    public func version(_ i: Int) -> RowVersion {
        let e = entries[i]
        let key = Array(buffer.bytes[e.keyStart..<e.valueStart])
        let value = e.valueCount < 0 ? nil : Array(buffer.bytes[e.valueStart..<(e.valueStart + Int(e.valueCount))])
        return RowVersion(key: RowKey(bytes: key), position: e.position, value: value, keep: e.keep)
    }

    /// Every version as a value, in the order added.
    public var versions: [RowVersion] { entries.indices.map(version) }

    /// Two entries' keys compared as memcmp does, the shorter first when one is a prefix of the other.
    ///
    /// Eight bytes at a time, read big-endian so that integers compare as their bytes do: keys of one group share a
    /// long prefix (a user's id, the zeros of a padded position), which a sort compares over and over.
    @inline(__always)
    static func compare(_ bytes: UnsafeRawBufferPointer, _ a: Entry, _ b: Entry) -> Int {
        let n = Int(min(a.keyCount, b.keyCount))
        precondition(a.keyStart >= 0 && b.keyStart >= 0 && max(a.keyStart, b.keyStart) + n <= bytes.count)
        var k = 0
        if n > 0, let base = bytes.baseAddress {
            let x = base + a.keyStart
            let y = base + b.keyStart
            while k + 8 <= n {
                let u = x.loadUnaligned(fromByteOffset: k, as: UInt64.self).bigEndian
                let v = y.loadUnaligned(fromByteOffset: k, as: UInt64.self).bigEndian
                if u != v { return u < v ? -1 : 1 }
                k += 8
            }
            while k < n {
                let u = x.load(fromByteOffset: k, as: UInt8.self)
                let v = y.load(fromByteOffset: k, as: UInt8.self)
                if u != v { return u < v ? -1 : 1 }
                k += 1
            }
        }
        return a.keyCount == b.keyCount ? 0 : (a.keyCount < b.keyCount ? -1 : 1)
    }

    /// Whether two entries have the same key.
    public func sameKey(_ i: Int, _ j: Int) -> Bool {
        let a = entries[i]
        let b = entries[j]
        guard a.groupHash == b.groupHash, a.keyCount == b.keyCount else { return false }
        return buffer.bytes.withUnsafeBytes { Self.compare($0, a, b) == 0 }
    }
}
