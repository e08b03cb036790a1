#if canImport(Glibc)
import Glibc
#endif

/// The name of a stream: a validated, non-empty string such as `order-42` or `inventory-litter-5kg`.
///
/// A stream id is at most ``EventLimits/maxStreamIDBytes`` bytes of UTF-8, holds no whitespace or control
/// characters, and does not start with `$` (reserved for system streams). Any other Unicode is allowed.
public struct StreamID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The stream id as given.
    public let rawValue: String

    /// Validates and wraps a stream id.
    ///
    /// - Parameter rawValue: The stream id.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` naming what is wrong with the id.
    public init(_ rawValue: String) throws(EventStoreError) {
        try EventLimits.validateStreamID(rawValue)
        self.rawValue = rawValue
    }

    /// Wraps a stream id that was validated before it was stored (used when decoding the log).
    public init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// The stream's category: its id up to the first `-` (`order-42` is in `order`); a stream id without
    /// `-` is its own category.
    public var category: Substring {
        if let dash = rawValue.firstIndex(of: "-") { return rawValue[..<dash] }
        return rawValue[...]
    }

    /// Whether the stream is in a category: its ``category`` has exactly the category's bytes (compared like stream
    /// ids, not by Unicode canonical equivalence as `String` compares them).
    ///
    /// - Parameter category: The category name.
    /// - Returns: `true` when `category` is the stream's category.
    public func isInCategory(_ category: String) -> Bool {
        self.category.utf8.elementsEqual(category.utf8)
    }

    public var description: String { rawValue }

    // Stream ids compare by their bytes, not by Unicode canonical equivalence as `String` does: the log
    // indexes streams by the bytes of their ids, so "café" (é precomposed) and "café" (e + combining acute)
    // are two streams everywhere, in memory and on disk alike.
    public static func == (lhs: StreamID, rhs: StreamID) -> Bool {
        var a = lhs.rawValue
        var b = rhs.rawValue
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }

    // The bytes are folded into one word first, eight at a time, from a seed of this process's: `Hasher` takes
    // arbitrary bytes through a buffering path that cost about 400 instructions for a 12-byte id, and every append
    // and read looks stream ids up in several tables. The seed keeps the word unpredictable, so that ids cannot be
    // chosen to collide in every process.
    public func hash(into hasher: inout Hasher) {
        var s = rawValue
        hasher.combine(s.withUTF8 { Self.fold(UnsafeRawBufferPointer($0)) })
    }

    private static let seed = UInt64.random(in: .min ... .max)

    private static func fold(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        if i < bytes.count {
            var tail: UInt64 = 0
            for k in i..<bytes.count { tail |= UInt64(bytes[k]) << UInt64(8 * (k - i)) }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
            h ^= h >> 29
        }
        return h
    }

    public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
        var a = lhs.rawValue
        var b = rhs.rawValue
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let n = Swift.min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
    }
}
