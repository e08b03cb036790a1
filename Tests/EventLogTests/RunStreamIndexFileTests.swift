import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// An index run's stream index, merged from its segments' stream indexes: each stream's last version and the
/// segments holding it; a hash two streams share is marked ambiguous rather than given either one's version.
@Suite struct RunStreamIndexFileTests {
    private func segmentIndex(_ first: UInt64, _ streams: [(String, UInt64, [UInt64])]) -> StreamIndexFile {
        let bytes = StreamIndexFile.encode(segmentFirstPosition: first, streams: streams.map { (stream($0.0), $0.1, $0.2) })
        let events = streams.reduce(0) { $0 + $1.2.count }
        return StreamIndexFile.load(MappedFile(copying: bytes, path: "x.sidx"), segmentFirstPosition: first, segmentEvents: UInt64(events))!
    }

    /// A segment index whose two entries share one hash, as two streams colliding in 128 bits would: built by
    /// hand, since no known pair of stream ids collides (versions no greater than positions, as in any real index).
    private func collidingSegmentIndex(_ first: UInt64, hash: Hash128) -> StreamIndexFile {
        var body = ByteWriter()
        // Version 2: the directory holds hashes and postings offsets; each stream's postings start with its first
        // version and count, then its positions' deltas (3 bytes each here).
        var postings = ByteWriter()
        for (version, delta) in [(UInt64(0), UInt64(0)), (UInt64(3), UInt64(1))] {
            body.write(hash.high)
            body.write(hash.low)
            body.write(UInt32(postings.count))
            postings.writeVarint(version)
            postings.writeVarint(1)
            postings.writeVarint(delta)
        }
        body.write(bytes: postings.bytes)
        var w = ByteWriter()
        w.write(LogFormat.streamIndexMagic)
        w.write(StreamIndexFile.version)
        w.write(UInt16(0))
        w.write(first)
        w.write(UInt32(2))
        w.write(UInt32(2))
        w.write(UInt32(postings.count))
        w.write(CRC32C.checksum(body.bytes))
        w.write(bytes: body.bytes)
        CheckedPages.appendTable(to: &w.bytes)
        return StreamIndexFile.load(MappedFile(copying: w.bytes, path: "c.sidx"), segmentFirstPosition: first, segmentEvents: 2)!
    }

    @Test func `each stream has its last version and the segments that hold it`() throws {
        let segments = [
            segmentIndex(0, [("pet-1", 0, [0, 1]), ("pet-2", 0, [2])]),
            segmentIndex(3, [("pet-3", 0, [3]), ("pet-1", 2, [4])]),
            segmentIndex(5, [("pet-1", 3, [5, 6, 7]), ("pet-4", 0, [8])]),
        ]
        let bytes = try RunStreamIndexFile.encode(runFirstPosition: 0, segments: segments, identity: 42, idsChecksum: 7)
        let run = try #require(RunStreamIndexFile.load(MappedFile(copying: bytes, path: "r.ridx"), runFirstPosition: 0, runLastPosition: 8, segmentCount: 3, identity: 42, idsChecksum: 7))
        #expect(run.streamCount == 4)
        func answer(_ s: String) throws -> (UInt64?, [Int])? {
            guard let e = try run.entry(for: Hash128(s)) else { return nil }
            return (e.lastVersion, try run.segmentOrdinals(of: e))
        }
        #expect(try answer("pet-1")?.0 == 5)
        #expect(try answer("pet-1")?.1 == [0, 1, 2])
        #expect(try answer("pet-2")?.0 == 0)
        #expect(try answer("pet-2")?.1 == [0])
        #expect(try answer("pet-3")?.1 == [1])
        #expect(try answer("pet-4")?.1 == [2])
        #expect(try answer("pet-5") == nil)
        // Hashes are listed in order, so a lookup is a binary search.
        let hashes = try (0..<run.streamCount).map { try run.entry(at: $0).hash }
        #expect(hashes == hashes.sorted())
    }

    /// A stream's version never exceeds its position: a segment index whose first version lies past the segment's
    /// end (planted, with a valid checksum) is refused, or the next append's version would overflow.
    @Test func `a segment index whose versions lie past the segment's positions is refused`() throws {
        for (version, accepted) in [(UInt64(11), true), (12, false), (UInt64.max - 2, false)] {
            let bytes = StreamIndexFile.encode(segmentFirstPosition: 10, streams: [(stream("pet-1"), version, [10, 11])])
            let index = StreamIndexFile.load(MappedFile(copying: bytes, path: "x.sidx"), segmentFirstPosition: 10, segmentEvents: 2)
            #expect((index != nil) == accepted, "first version \(version)")
        }
    }

    @Test func `a hash two streams share in a segment is ambiguous in the run`() throws {
        let hash = Hash128("collides")
        let segments = [segmentIndex(0, [("collides", 0, [0]), ("other", 0, [1])]), collidingSegmentIndex(2, hash: hash)]
        let bytes = try RunStreamIndexFile.encode(runFirstPosition: 0, segments: segments, identity: 42, idsChecksum: 7)
        let run = try #require(RunStreamIndexFile.load(MappedFile(copying: bytes, path: "r.ridx"), runFirstPosition: 0, runLastPosition: 3, segmentCount: 2, identity: 42, idsChecksum: 7))
        let e = try #require(try run.entry(for: hash))
        #expect(e.lastVersion == nil)
        #expect(try run.segmentOrdinals(of: e) == [0, 1])
        #expect(try run.entry(for: Hash128("other"))?.lastVersion == 0)
    }

    @Test func `a damaged or foreign file is refused`() throws {
        let segments = [segmentIndex(10, [("pet-1", 0, [10, 11])]), segmentIndex(12, [("pet-1", 2, [12])])]
        let bytes = try RunStreamIndexFile.encode(runFirstPosition: 10, segments: segments, identity: 42, idsChecksum: 7)
        func load(_ b: [UInt8], first: UInt64 = 10, last: UInt64 = 12, count: Int = 2, identity: UInt64 = 42, ids: UInt32 = 7) -> RunStreamIndexFile? {
            RunStreamIndexFile.load(
                MappedFile(copying: b, path: "r.ridx"), runFirstPosition: first, runLastPosition: last, segmentCount: count, identity: identity,
                idsChecksum: ids)
        }
        #expect(load(bytes) != nil)
        #expect(load(bytes, identity: 43) == nil, "built from other segments")
        #expect(load(bytes, ids: 8) == nil, "built with another id index")
        #expect(load(bytes, first: 0) == nil, "another run's first position")
        #expect(load(bytes, count: 3) == nil, "another number of segments")
        #expect(load(bytes, last: 1) == nil, "a last version (2) past the run's last position")
        #expect(load(Array(bytes.dropLast())) == nil, "truncated")
        for i in stride(from: 0, to: bytes.count, by: 1) {
            var damaged = bytes
            damaged[i] ^= 0x10
            #expect(load(damaged) == nil, "byte \(i) flipped")
        }
    }
}
