@testable import EventLogFile
@testable import EventLogTestKit
import PawtrailIO
import Testing

/// The index directories' search finds the lower bound a bisection finds, whether or not the hashes are spread
/// as evenly as its guess assumes.
@Suite struct HashSearchTests {
    private func linearLowerBound(_ hashes: [Hash128], _ key: Hash128) -> Int {
        hashes.firstIndex { !($0 < key) } ?? hashes.count
    }

    @Test(arguments: [0, 1, 2, 3, 17, 1000])
    func `every key's lower bound, even, skewed and repeated hashes`(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let layouts: [[Hash128]] = [
            (0..<count).map { _ in Hash128(high: generator.next(), low: generator.next()) }.sorted(),
            // All in the lowest 1/1000 of the range, or all in the highest: every guess is far off.
            (0..<count).map { _ in Hash128(high: UInt64.random(in: 0...(UInt64.max / 1000)), low: generator.next()) }.sorted(),
            (0..<count).map { _ in Hash128(high: UInt64.max - UInt64.random(in: 0...1000), low: generator.next()) }.sorted(),
            // Runs of equal hashes (as two streams sharing a hash make).
            (0..<count).map { i in Hash128(high: UInt64(i / 3) << 50, low: 7) },
        ]
        for hashes in layouts {
            var keys = hashes
            keys += [Hash128(high: 0, low: 0), Hash128(high: .max, low: .max)]
            keys += (0..<50).map { _ in Hash128(high: generator.next(), low: generator.next()) }
            keys += hashes.map { Hash128(high: $0.high, low: $0.low &+ 1) }
            keys += hashes.map { Hash128(high: $0.high, low: $0.low &- 1) }
            for key in keys {
                let found = HashSearch.lowerBound(of: key, count: hashes.count) { hashes[$0] }
                #expect(found == linearLowerBound(hashes, key), "key \(key) among \(hashes.count)")
            }
        }
    }
}
