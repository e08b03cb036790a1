import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// `log verify`'s search for an id that occurs twice, by merging the segments' sorted id indexes: it finds every
/// planted duplicate, within a segment and across segments of different sizes (so indexes that keep different
/// numbers of hash bits) and the active segment's whole hashes, and reads few events to confirm.
@Suite struct DuplicateIDFinderTests {
    /// A segment of ids at consecutive positions, as its id index.
    private func index(_ ids: [UUID], first: UInt64) -> EventIDIndexFile {
        let bytes = EventIDIndexFile.encode(
            segmentFirstPosition: first, ids: ids.enumerated().map { (EventIDIndexFile.key($0.element), first + UInt64($0.offset)) })
        return EventIDIndexFile.load(MappedFile(copying: bytes, path: "x.eidx"), segmentFirstPosition: first, segmentEvents: UInt64(ids.count))!
    }

    private struct Found: Hashable {
        var id: UUID
        var earlier: UInt64
        var later: UInt64
    }

    /// Lays `segments` out at consecutive positions (the last one as the active segment's whole hashes), runs
    /// the finder, and returns what it reports and how many events it read.
    private func run(_ segments: [[UUID]]) throws -> (found: Set<Found>, reads: Int) {
        var sources: [DuplicateIDFinder.Source] = []
        var byPosition: [UInt64: UUID] = [:]
        var first: UInt64 = 0
        for (k, ids) in segments.enumerated() {
            for (i, id) in ids.enumerated() { byPosition[first + UInt64(i)] = id }
            if k == segments.count - 1 {
                let keys = ids.enumerated().map { (key: EventIDIndexFile.key($0.element), position: first + UInt64($0.offset)) }
                sources.append(.keys(keys.sorted { ($0.key, $0.position) < ($1.key, $1.position) }))
            } else {
                sources.append(.index(index(ids, first: first)))
            }
            first += UInt64(ids.count)
        }
        var found = Set<Found>()
        var reads = 0
        try DuplicateIDFinder.find(sources, idAt: { p in
            reads += 1
            return byPosition[p]
        }) { id, a, b in found.insert(Found(id: id, earlier: a, later: b)) }
        return (found, reads)
    }

    @Test func `no duplicates among distinct ids, with few reads`() throws {
        // Segments of 5 ids (an index keeping 24 bits of each hash), 1,000 and 20,000 (more bits), then an active one.
        let segments = [5, 1000, 20_000, 300].map { n in (0..<n).map { _ in UUID() } }
        let (found, reads) = try run(segments)
        #expect(found.isEmpty)
        #expect(reads < 50, "\(reads) events read to confirm candidates among 21,305 ids")
    }

    @Test func `every planted duplicate is found, within and across segments`() throws {
        var segments = [5, 1000, 20_000, 300].map { n in (0..<n).map { _ in UUID() } }
        // Positions: segment 0 holds 0-4, segment 1 holds 5-1004, segment 2 1005-21004, the active 21005-21304.
        segments[1][700] = segments[0][3]  // across: the smallest index and a middle one
        segments[2][19_999] = segments[2][2]  // within one segment
        segments[3][299] = segments[1][10]  // the active segment's whole hashes against an index
        segments[3][0] = segments[3][1]  // within the active segment
        let (found, _) = try run(segments)
        #expect(found == [
            Found(id: segments[0][3], earlier: 3, later: 705),
            Found(id: segments[2][2], earlier: 1007, later: 21_004),
            Found(id: segments[1][10], earlier: 15, later: 21_304),
            Found(id: segments[3][1], earlier: 21_005, later: 21_006),
        ])
    }

    @Test func `an id three times is three pairs`() throws {
        var segments = [[UUID()], (0..<50).map { _ in UUID() }, (0..<10).map { _ in UUID() }]
        segments[1][20] = segments[0][0]
        segments[2][9] = segments[0][0]
        let (found, _) = try run(segments)
        #expect(Set(found.map { [$0.earlier, $0.later] }) == [[0, 21], [0, 60], [21, 60]])
    }

    @Test func `ids that cannot be read are not reported`() throws {
        let id = UUID()
        let sources: [DuplicateIDFinder.Source] = [.index(index([id], first: 0)), .index(index([id], first: 1))]
        var reported = 0
        try DuplicateIDFinder.find(sources, idAt: { _ in nil }) { _, _, _ in reported += 1 }
        #expect(reported == 0)
    }
}
