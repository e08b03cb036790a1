/// A 64-bit hash that is the same in every process and every release: FNV-1a over the bytes fed to it, then the
/// splitmix64 finalizer, so that the last bytes reach every bit. For values that are stored or derived and must
/// never change (row keys' order in run files, ids derived from a command's id); `Hasher` is seeded per process.
/// Part of the stored formats: never change it.
@frozen
public struct StableHash {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// An empty hash.
    @inlinable
    public init() {}

    /// Feeds bytes, in order.
    @inlinable
    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        for b in bytes {
            state ^= UInt64(b)
            state &*= 0x0000_0100_0000_01B3
        }
    }

    /// The hash of what was fed.
    @inlinable
    public var value: UInt64 {
        var h = state
        h ^= h >> 30
        h &*= 0xbf58_476d_1ce4_e5b9
        h ^= h >> 27
        h &*= 0x94d0_49bb_1331_11eb
        h ^= h >> 31
        return h
    }

    /// The hash of some bytes.
    @inlinable
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHash()
        h.combine(bytes)
        return h.value
    }
}
