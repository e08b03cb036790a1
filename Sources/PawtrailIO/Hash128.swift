/// A 128-bit hash of bytes (MurmurHash3 x64_128, seed 0): stable across processes and builds, so it can key
/// on-disk indexes. Collisions are not assumed away: readers compare the full key after a lookup.
public struct Hash128: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The high 64 bits.
    public var high: UInt64
    /// The low 64 bits.
    public var low: UInt64

    /// Wraps two halves.
    @inlinable public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Hashes the UTF-8 bytes of a string.
    public init(_ string: String) {
        var s = string
        self = s.withUTF8 { Hash128(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Hashes bytes.
    public init(bytes: UnsafeRawBufferPointer) {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5
        let c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1: UInt64 = 0
        var h2: UInt64 = 0
        let n = bytes.count
        let blocks = n / 16
        for i in 0..<blocks {
            var k1 = bytes.loadUnaligned(fromByteOffset: i * 16, as: UInt64.self).littleEndian
            var k2 = bytes.loadUnaligned(fromByteOffset: i * 16 + 8, as: UInt64.self).littleEndian
            k1 &*= c1; k1 = (k1 << 31) | (k1 >> 33); k1 &*= c2; h1 ^= k1
            h1 = (h1 << 27) | (h1 >> 37); h1 &+= h2; h1 = h1 &* 5 &+ 0x52dc_e729
            k2 &*= c2; k2 = (k2 << 33) | (k2 >> 31); k2 &*= c1; h2 ^= k2
            h2 = (h2 << 31) | (h2 >> 33); h2 &+= h1; h2 = h2 &* 5 &+ 0x3849_5ab5
        }
        var k1: UInt64 = 0
        var k2: UInt64 = 0
        let tail = blocks * 16
        let rest = n & 15
        if rest > 8 {
            for i in stride(from: rest - 1, through: 8, by: -1) {
                k2 ^= UInt64(bytes[tail + i]) << (UInt64(i - 8) * 8)
            }
            k2 &*= c2; k2 = (k2 << 33) | (k2 >> 31); k2 &*= c1; h2 ^= k2
        }
        if rest > 0 {
            for i in stride(from: min(rest, 8) - 1, through: 0, by: -1) {
                k1 ^= UInt64(bytes[tail + i]) << (UInt64(i) * 8)
            }
            k1 &*= c1; k1 = (k1 << 31) | (k1 >> 33); k1 &*= c2; h1 ^= k1
        }
        h1 ^= UInt64(n); h2 ^= UInt64(n)
        h1 &+= h2; h2 &+= h1
        h1 = Self.fmix(h1); h2 = Self.fmix(h2)
        h1 &+= h2; h2 &+= h1
        high = h1
        low = h2
    }

    /// MurmurHash3's 64-bit finalizer: every input bit affects every output bit. Part of on-disk formats (the
    /// stream hash here, the event-id index's key): never change it.
    ///
    /// - Parameter k0: The value to mix.
    /// - Returns: The mixed value.
    @inlinable public static func fmix(_ k0: UInt64) -> UInt64 {
        var k = k0
        k ^= k >> 33; k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33; k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }

    @inlinable public static func < (a: Hash128, b: Hash128) -> Bool { (a.high, a.low) < (b.high, b.low) }

    public var description: String {
        let h = String(high, radix: 16)
        let l = String(low, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h + String(repeating: "0", count: 16 - l.count) + l
    }
}
