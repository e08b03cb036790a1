public import EventLog

/// The key of a stored row of a read model's state: its table's id, then the key's UTF-8 bytes. A row that is one
/// part of a group (one entry of a user's activity) has the group's key, a 0x1F byte (which no id holds: ids have no
/// control characters) and the part's key, so that a group's rows are stored together.
///
/// Rows are stored ordered by table, then ``groupHash``, then their bytes: sorting millions of rows by a 64-bit
/// integer first is several times cheaper than by their text, a table's rows stay together, and so do a group's.
/// Part of the stored format.
public struct RowKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The table's id, then the key's bytes.
    public let bytes: [UInt8]
    /// The hash of the table's id and the group's key (``group``).
    public let groupHash: UInt64
    /// The table's id (the first byte), kept apart so that ordering never reads the bytes unless it must.
    public let table: UInt8

    /// The byte between a group's key and a part's.
    public static let separator: UInt8 = 0x1F

    /// A row's key.
    public init(table: UInt8, key: String) {
        var b: [UInt8] = [table]
        b.append(contentsOf: key.utf8)
        self.init(bytes: b)
    }

    /// The key of one part of a group of rows.
    public init(table: UInt8, group: String, part: String) {
        var b: [UInt8] = [table]
        b.append(contentsOf: group.utf8)
        b.append(Self.separator)
        b.append(contentsOf: part.utf8)
        self.init(bytes: b)
    }

    /// A key from its stored bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        table = bytes.first ?? 0
        groupHash = bytes.withUnsafeBytes { b in
            Self.hash(UnsafeRawBufferPointer(rebasing: b[..<(b.firstIndex(of: Self.separator) ?? b.count)]))
        }
    }

    public static func == (a: RowKey, b: RowKey) -> Bool {
        a.groupHash == b.groupHash && a.table == b.table && a.bytes == b.bytes
    }

    /// Hashes every byte: the parts of one group share ``groupHash`` and often their length (an activity entry's
    /// zero-padded position), so a hash of those alone would put a whole group in one bucket.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The key without its table's id, as text.
    public var key: String { String(decoding: bytes.dropFirst(), as: UTF8.self) }

    /// The group's key and the part's, for a part of a group; the whole key and `nil` otherwise.
    public var parts: (group: String, part: String?) {
        let body = bytes.dropFirst()
        guard let s = body.firstIndex(of: Self.separator) else { return (String(decoding: body, as: UTF8.self), nil) }
        return (String(decoding: body[..<s], as: UTF8.self), String(decoding: body[(s + 1)...], as: UTF8.self))
    }

    /// The prefix every row of a group starts with (the group's key and the separator), for a group's key.
    public static func groupPrefix(table: UInt8, group: String) -> [UInt8] {
        var b: [UInt8] = [table]
        b.append(contentsOf: group.utf8)
        b.append(separator)
        return b
    }

    public static func < (a: RowKey, b: RowKey) -> Bool {
        if a.table != b.table { return a.table < b.table }
        if a.groupHash != b.groupHash { return a.groupHash < b.groupHash }
        return compareBytes(a, b) < 0
    }

    /// The keys' bytes compared as memcmp does, the shorter first when one is a prefix of the other.
    @inlinable
    public static func compareBytes(_ a: RowKey, _ b: RowKey) -> Int {
        a.bytes.withUnsafeBufferPointer { x in
            b.bytes.withUnsafeBufferPointer { y in
                let n = min(x.count, y.count)
                for i in 0..<n where x[i] != y[i] { return x[i] < y[i] ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }

    /// The stable hash of bytes (``StableHash``): part of the stored format.
    @inlinable
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 { StableHash.of(bytes) }

    public var description: String {
        let (group, part) = parts
        return "\(table):\(group)" + (part.map { "/\($0)" } ?? "")
    }
}
