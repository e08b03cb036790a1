#if canImport(Glibc)
import Glibc
#endif

/// Free-form string pairs carried by an event, with well-known keys for correlation, causation and actor.
///
/// Pairs are kept sorted by key with unique keys, in one canonical byte encoding (each key and value as a
/// LEB128 length and UTF-8), so equal metadata has equal bytes, and the log stores and returns those bytes
/// without building strings until someone asks for them.
public struct EventMetadata: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The key of the id that ties together every event caused by one user action.
    public static let correlationID = "correlationId"
    /// The key of the id of the command or event that directly caused this event.
    public static let causationID = "causationId"
    /// The key of who caused the event (a user id, a service name).
    public static let actor = "actor"

    /// The canonical encoding: for each pair in key order, key length (LEB128), key, value length, value.
    public private(set) var encoded: [UInt8]
    /// The number of pairs.
    public private(set) var count: Int

    /// Creates empty metadata.
    public init() {
        encoded = []
        count = 0
    }

    /// Creates metadata from a dictionary.
    public init(_ dictionary: [String: String]) {
        self.init(sortedUniquePairs: dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        var d: [String: String] = [:]
        for (k, v) in elements { d[k] = v }
        self.init(d)
    }

    /// Builds metadata from pairs already sorted by key with unique keys.
    public init(sortedUniquePairs: [(key: String, value: String)]) {
        encoded = []
        encoded.reserveCapacity(sortedUniquePairs.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 })
        count = sortedUniquePairs.count
        for p in sortedUniquePairs {
            Self.append(p.key, to: &encoded)
            Self.append(p.value, to: &encoded)
        }
    }

    /// Wraps bytes in the canonical encoding (as the log stores them) holding `count` pairs.
    ///
    /// - Parameters:
    ///   - encoded: The bytes; they must be the canonical encoding (the log checks its data by checksum).
    ///   - count: The number of pairs in them.
    public init(encoded: [UInt8], count: Int) {
        self.encoded = encoded
        self.count = count
    }

    /// The pairs, sorted by key.
    public var pairs: [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        out.reserveCapacity(Swift.max(count, 0))
        forEachPair { k, v in
            out.append((key: k, value: v))
            return true
        }
        return out
    }

    /// Whether there are no pairs.
    public var isEmpty: Bool { count == 0 }

    /// The value for a key, or `nil`. Setting `nil` removes the key.
    public subscript(key: String) -> String? {
        get {
            var found: String?
            forEachPair { k, v in
                if k == key {
                    found = v
                    return false
                }
                return k < key
            }
            return found
        }
        set {
            var p = pairs
            var lo = 0
            var hi = p.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if p[mid].key < key { lo = mid + 1 } else { hi = mid }
            }
            let exists = lo < p.count && p[lo].key == key
            switch (exists, newValue) {
            case (true, .some(let v)): p[lo].value = v
            case (true, .none): p.remove(at: lo)
            case (false, .some(let v)): p.insert((key: key, value: v), at: lo)
            case (false, .none): return
            }
            self = EventMetadata(sortedUniquePairs: p)
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: String)]> { pairs.makeIterator() }

    /// The pairs as a dictionary.
    public var dictionary: [String: String] {
        var d: [String: String] = [:]
        forEachPair { k, v in
            d[k] = v
            return true
        }
        return d
    }

    /// The total UTF-8 size of keys and values.
    public var contentSize: Int {
        var n = 0
        forEachPairBytes { k, v in
            n += k.count + v.count
            return true
        }
        return n
    }

    public static func == (lhs: EventMetadata, rhs: EventMetadata) -> Bool {
        lhs.count == rhs.count && lhs.encoded == rhs.encoded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded)
    }

    /// Calls `body` with the UTF-8 bytes of a key's value, without building strings: the fast path for readers
    /// that look at one key of every event. Malformed bytes end the search (never trap).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - body: Given the value's bytes.
    /// - Returns: What `body` returns, `nil` when the key is absent.
    @inlinable
    public func withValueBytes<R>(forKey key: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        var key = key
        return key.withUTF8 { k in
            var result: R?
            forEachPairBytes { pairKey, value in
                guard pairKey.count == k.count, k.isEmpty || memcmp(pairKey.baseAddress!, k.baseAddress!, k.count) == 0 else { return true }
                result = body(value)
                return false
            }
            return result
        }
    }

    /// Visits the pairs' UTF-8 bytes in key order without building strings; return `false` to stop. Malformed
    /// bytes end the visit (never trap).
    ///
    /// - Parameter body: Given each key's and value's bytes, valid only during the call.
    @inlinable
    public func forEachPairBytes(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        encoded.withUnsafeBufferPointer { b in
            var i = 0
            func field() -> UnsafeBufferPointer<UInt8>? {
                var length = 0
                var shift = 0
                while i < b.count {
                    let byte = b[i]
                    i += 1
                    length |= Int(byte & 0x7F) << shift
                    if byte < 0x80 {
                        guard length <= b.count - i else { return nil }
                        defer { i += length }
                        return UnsafeBufferPointer(rebasing: b[i..<(i + length)])
                    }
                    shift += 7
                    if shift > 28 { return nil }
                }
                return nil
            }
            for _ in 0..<Swift.max(count, 0) {
                guard let k = field(), let v = field(), body(k, v) else { return }
            }
        }
    }

    /// Why these bytes are not the canonical encoding, or `nil` when they are: a pair count of at least zero, and
    /// exactly that many pairs, keys and values valid UTF-8, keys in increasing order (as `String` sorts them)
    /// each once, lengths in their shortest form, no bytes left over. Metadata made from strings always is;
    /// bytes given to ``init(encoded:count:)`` may not be, and the log refuses to store them.
    ///
    /// - Returns: The problem, as a phrase naming the key where there is one.
    public func encodingProblem() -> String? {
        guard count >= 0 else { return "metadata with a negative pair count (\(count))" }
        var problem: String?
        var pairs = 0
        var consumed = 0
        var previousKey: UnsafeBufferPointer<UInt8>?
        forEachPairBytes { key, value in
            func text() -> String { String(decoding: key, as: UTF8.self) }
            defer { previousKey = key }
            pairs += 1
            consumed += Self.lengthSize(key.count) + key.count + Self.lengthSize(value.count) + value.count
            if !Self.isValidUTF8(key) {
                problem = "metadata key '\(text())' is not valid UTF-8"
            } else if !Self.isValidUTF8(value) {
                problem = "the value of metadata key '\(text())' is not valid UTF-8"
            } else if let previousKey, !Self.keyPrecedes(previousKey, key) {
                problem = "metadata key '\(text())' is out of order or repeated (keys are sorted, each once)"
            }
            return problem == nil
        }
        if let problem { return problem }
        guard pairs == count, consumed == encoded.count else {
            return "metadata bytes that do not hold its \(count) pairs in the canonical encoding"
        }
        return nil
    }

    /// Whether one valid UTF-8 key sorts strictly before another as the initializers sort them (by `String`'s `<`,
    /// which for ASCII is the bytes' order).
    private static func keyPrecedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(a) && isASCII(b) {
            let n = Swift.min(a.count, b.count)
            let c = n == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, n)
            return c != 0 ? c < 0 : a.count < b.count
        }
        return String(decoding: a, as: UTF8.self) < String(decoding: b, as: UTF8.self)
    }

    /// How many bytes ``append(_:to:)`` writes for a length (LEB128, shortest form).
    private static func lengthSize(_ n: Int) -> Int {
        var size = 1
        var v = n >> 7
        while v > 0 {
            size += 1
            v >>= 7
        }
        return size
    }

    /// Whether bytes are valid UTF-8; ASCII, nearly all metadata, is checked byte by byte.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(bytes) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether every byte is ASCII, eight at a time.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var k = 0
        var any: UInt64 = 0
        while k + 8 <= bytes.count {
            any |= raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k += 8
        }
        while k < bytes.count {
            any |= UInt64(bytes[k])
            k += 1
        }
        return any & 0x8080_8080_8080_8080 == 0
    }

    private func forEachPair(_ body: (String, String) -> Bool) {
        forEachPairBytes { k, v in body(String(decoding: k, as: UTF8.self), String(decoding: v, as: UTF8.self)) }
    }

    private static func append(_ s: String, to bytes: inout [UInt8]) {
        var s = s
        s.withUTF8 { utf8 in
            var v = utf8.count
            while v >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
            bytes.append(contentsOf: utf8)
        }
    }
}
