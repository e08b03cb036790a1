/// SplitMix64: a tiny 64-bit mixer, used to seed ``Xoshiro256StarStar`` and to derive per-commit values
/// (correlation ids, actors) from `(seed, commit index)` without consuming the main random stream.
///
/// Spelled out here rather than using the standard library's generators so that the workload is
/// byte-identical across Swift versions for the same seed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator starting at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The SplitMix64 finalizer: a bijective hash of 64 bits.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
