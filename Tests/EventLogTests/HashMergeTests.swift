@testable import EventLogFile
@testable import EventLogTestKit
import PawtrailIO
import Testing

@Suite struct HashMergeTests {
    static func h(_ n: UInt64) -> Hash128 { Hash128(high: n >> 3, low: n) }

    @Test func `each distinct hash once, ascending, with its occurrences in source then entry order`() throws {
        let sources = [
            HashMerge.Source(sorted: [Self.h(1), Self.h(5), Self.h(5), Self.h(9)]),
            HashMerge.Source(sorted: []),
            HashMerge.Source(sorted: [Self.h(0), Self.h(5), Self.h(12)]),
            HashMerge.Source(sorted: [Self.h(9)]),
        ]
        var seen: [(Hash128, [String])] = []
        try HashMerge.forEachHash(sources) { hash, occurrences in
            seen.append((hash, occurrences.map { "\($0.source).\($0.entry)" }))
        }
        #expect(seen.map(\.0) == [0, 1, 5, 9, 12].map(Self.h))
        #expect(seen.map(\.1) == [["2.0"], ["0.0"], ["0.1", "0.2", "2.1"], ["0.3", "3.0"], ["2.2"]])
        #expect(try HashMerge.distinctCount(sources) == 5)
    }

    @Test func `no sources, or only empty ones, hold no hash`() throws {
        #expect(try HashMerge.distinctCount([]) == 0)
        #expect(try HashMerge.distinctCount([HashMerge.Source(sorted: []), HashMerge.Source(sorted: [])]) == 0)
    }

    @Test func `hashes that differ only in their low half stay apart`() throws {
        let a = Hash128(high: 7, low: 1)
        let b = Hash128(high: 7, low: 2)
        let c = Hash128(high: 8, low: 0)
        #expect(try HashMerge.distinctCount([HashMerge.Source(sorted: [a, c]), HashMerge.Source(sorted: [b, c])]) == 3)
    }
}
