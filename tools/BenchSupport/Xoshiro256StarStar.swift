public import Foundation

/// xoshiro256**: a small, fast generator, so the workload is the same for the same seed on every machine
/// (Swift's `SystemRandomNumberGenerator` cannot be seeded, and dictionary order changes per process, so the
/// simulation draws only from this and iterates only arrays).
public struct Xoshiro256StarStar {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
    }

    public mutating func next() -> UInt64 {
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

    /// A value in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in the range.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        int(range)
    }

    /// A value in the range.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A value in the range, as `Int64`.
    public mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(below(Int(range.upperBound - range.lowerBound + 1)))
    }

    /// A value in `[0, 1)`.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// A skewed index in `0..<count`: low indices (the oldest customers, the first products) come up more often,
    /// as regulars do.
    public mutating func skewed(_ count: Int, power: Double = 2) -> Int {
        min(count - 1, Int(Double(count) * pow(unit(), power)))
    }

    /// A UUID from the stream (version 4 bits set), so event and command ids are reproducible too.
    public mutating func uuid() -> UUID {
        let a = next()
        let b = next()
        var bytes = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
                     UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: b.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }
}
