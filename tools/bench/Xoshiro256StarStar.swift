/// xoshiro256**: the workload's pseudo-random generator (Blackman & Vigna).
///
/// All draws the workload makes go through the helpers below, never through `Int.random(in:using:)`, whose
/// algorithm the standard library may change: the same seed must give the same bytes on every toolchain.
struct Xoshiro256StarStar {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Creates a generator whose state is expanded from `seed` with SplitMix64, as the authors recommend.
    init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift; the bias for bounds this small is ~2^-50).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform double in `[0, 1)` from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// One element of a non-empty array, uniformly.
    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}
