import BenchSupport
import Foundation

/// Draws ranks `0..<count` with Zipf-like popularity (probability ∝ 1 / (rank + 1)^exponent), so that a few
/// streams are hot and most are cold, as in a real shop.
struct ZipfSampler {
    /// Cumulative probabilities; the last is 1.
    private let cumulative: [Double]

    /// Precomputes the distribution.
    ///
    /// - Parameters:
    ///   - count: How many ranks.
    ///   - exponent: The skew; 0 is uniform, 1 is classic Zipf.
    init(count: Int, exponent: Double) {
        precondition(count > 0)
        var weights = [Double](repeating: 0, count: count)
        var total = 0.0
        for rank in 0..<count {
            let w = 1.0 / pow(Double(rank + 1), exponent)
            total += w
            weights[rank] = total
        }
        cumulative = weights.map { $0 / total }
    }

    /// A rank, by binary search of a uniform draw in the cumulative distribution.
    func sample(_ rng: inout Xoshiro256StarStar) -> Int {
        let u = rng.unit()
        var lo = 0
        var hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] <= u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
