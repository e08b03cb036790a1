import EventLog
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The sealed segments' event-id index: every id finds its own position among its candidates, whatever the ids
/// look like, and a damaged or older file is refused (the store then rebuilds it from the segment).
@Suite struct EventIDIndexFileTests {
    private func mapped(_ bytes: [UInt8], _ dir: TemporaryDirectory) throws -> MappedFile {
        let path = dir.path + "/x.eidx"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try MappedFile(path: path)
    }

    /// Time-ordered ids share their leading bytes: the index must spread them by its hash, not by their prefix.
    private func timeOrderedID(_ i: Int) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        let t = UInt64(1_800_000_000_000 + i / 4)
        for k in 0..<6 { bytes[k] = UInt8(truncatingIfNeeded: t >> (8 * (5 - k))) }
        bytes[6] = 0x70
        bytes[8] = 0x80 | UInt8(i & 0x3F)
        bytes[15] = UInt8(truncatingIfNeeded: i)
        bytes[14] = UInt8(truncatingIfNeeded: i >> 8)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    @Test(arguments: [0, 1, 7, 8, 1000, 20_000])
    func `every id finds its own position, random or time-ordered`(count: Int) throws {
        let dir = TemporaryDirectory()
        for ids in [(0..<count).map { _ in UUID() }, (0..<count).map(timeOrderedID)] {
            let first: UInt64 = 5_000_000
            let bytes = EventIDIndexFile.encode(
                segmentFirstPosition: first, ids: ids.enumerated().map { (EventIDIndexFile.key($0.element), first + UInt64($0.offset)) })
            // 24-byte header, bucket table, 6 bytes an entry.
            #expect(bytes.count == 24 + ((1 << EventIDIndexFile.bucketBits(count: count)) + 1) * 4 + 6 * count)
            let index = try #require(EventIDIndexFile.load(try mapped(bytes, dir), segmentFirstPosition: first, segmentEvents: UInt64(count)))
            var candidates = 0
            for (i, id) in ids.enumerated() {
                var found: [UInt64] = []
                index.forEachCandidate(key: EventIDIndexFile.key(id)) { p in
                    found.append(p)
                    return true
                }
                #expect(found.contains(first + UInt64(i)))
                candidates += found.count
            }
            // 24 fingerprint bits beside the bucket's: another id shares both only by rare chance.
            #expect(candidates <= count + 2)
            var strays = 0
            for _ in 0..<1000 {
                index.forEachCandidate(key: EventIDIndexFile.key(UUID())) { _ in
                    strays += 1
                    return true
                }
            }
            #expect(strays <= 2)
        }
    }

    @Test func `positions 2^24 events or more into a segment take four bytes`() {
        let ids = (0..<100).map { _ in UUID() }
        let entries = ids.enumerated().map { (EventIDIndexFile.key($0.element), UInt64($0.offset == 99 ? 1 << 24 : $0.offset)) }
        let bytes = EventIDIndexFile.encode(segmentFirstPosition: 0, ids: entries)
        #expect(bytes[7] == 4)
        #expect(bytes.count == 24 + ((1 << EventIDIndexFile.bucketBits(count: 100)) + 1) * 4 + 7 * 100)
        let narrow = EventIDIndexFile.encode(segmentFirstPosition: 0, ids: entries.dropLast().map { $0 })
        #expect(narrow[7] == 3)
    }

    @Test func `a damaged, mismatched or older index is refused`() throws {
        let dir = TemporaryDirectory()
        let ids = (0..<500).map { _ in UUID() }
        let bytes = EventIDIndexFile.encode(segmentFirstPosition: 10, ids: ids.enumerated().map { (EventIDIndexFile.key($0.element), 10 + UInt64($0.offset)) })
        #expect(EventIDIndexFile.load(try mapped(bytes, dir), segmentFirstPosition: 10, segmentEvents: 500) != nil)
        #expect(EventIDIndexFile.load(try mapped(bytes, dir), segmentFirstPosition: 11, segmentEvents: 500) == nil)
        #expect(EventIDIndexFile.load(try mapped(bytes, dir), segmentFirstPosition: 10, segmentEvents: 499) == nil)
        for offset in [4, 6, 7, 24, 30, bytes.count - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            #expect(EventIDIndexFile.load(try mapped(damaged, dir), segmentFirstPosition: 10, segmentEvents: 500) == nil, "byte \(offset)")
        }
        #expect(EventIDIndexFile.load(try mapped(Array(bytes.dropLast()), dir), segmentFirstPosition: 10, segmentEvents: 500) == nil)
    }
}
