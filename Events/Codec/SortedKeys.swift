#if canImport(Glibc)
import Glibc
#endif

/// The keys of a dictionary in `String`'s order, which is how encodings write dictionaries so that equal ones have
/// equal bytes. Keys that are all ASCII sort by their bytes, which is the same order (a scalar per byte, nothing to
/// normalize), compared as two big-endian words of their first sixteen bytes and in full only on a tie: a state
/// holding thousands of keys (a product's open reservations) is encoded at every snapshot, and comparing them as
/// strings was a fifth of a long `exec`'s time.
public enum SortedKeys {
    /// The keys, sorted as `Array(keys).sorted()` sorts them.
    ///
    /// - Parameter keys: The keys.
    /// - Returns: The keys in increasing order.
    public static func of<C: Collection>(_ keys: C) -> [String] where C.Element == String {
        var entries: [(high: UInt64, low: UInt64, key: String)] = []
        entries.reserveCapacity(keys.count)
        for key in keys {
            var k = key
            guard let words = k.withUTF8({ prefixWords($0) }) else { return keys.sorted() }
            entries.append((words.0, words.1, key))
        }
        entries.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return bytesPrecede(a.key, b.key)
        }
        return entries.map(\.key)
    }

    /// The first sixteen bytes as two big-endian words, zero-padded; `nil` when a byte is not ASCII.
    private static func prefixWords(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        var any: UInt8 = 0
        for byte in utf8 { any |= byte }
        guard any < 0x80 else { return nil }
        var w: (UInt64, UInt64) = (0, 0)
        for k in 0..<min(16, utf8.count) {
            if k < 8 { w.0 |= UInt64(utf8[k]) << UInt64(56 - 8 * k) } else { w.1 |= UInt64(utf8[k]) << UInt64(120 - 8 * k) }
        }
        return w
    }

    /// Byte order of two ASCII strings, the shorter first when one is the other's prefix (which zero padding alone
    /// cannot tell from a key holding a zero byte).
    private static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        var x = a
        var y = b
        return x.withUTF8 { p in
            y.withUTF8 { q in
                let n = min(p.count, q.count)
                let c = n == 0 ? 0 : memcmp(p.baseAddress!, q.baseAddress!, n)
                return c != 0 ? c < 0 : p.count < q.count
            }
        }
    }
}
