import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The stream index's version 2 keeps each stream's first version and count at the head of its postings, 20 bytes a
/// stream in the directory against version 1's 32; a version 1 file, as stores written before hold, is refused and
/// rebuilt, and reads answer as before.
@Suite struct StreamIndexFileVersionTests {
    /// The version 1 bytes of a segment's streams: directory (hash, first version u64, count u32, postings offset
    /// u32), then the positions' deltas.
    private func versionOne(first: UInt64, _ streams: [(stream: StreamID, firstVersion: UInt64, positions: [UInt64])]) -> [UInt8] {
        var directory = ByteWriter()
        var postings = ByteWriter()
        var events = 0
        for (hash, s) in streams.map({ (Hash128($0.stream.rawValue), $0) }).sorted(by: { $0.0 < $1.0 }) {
            directory.write(hash.high)
            directory.write(hash.low)
            directory.write(s.firstVersion)
            directory.write(UInt32(s.positions.count))
            directory.write(UInt32(postings.count))
            var previous = first
            for p in s.positions {
                postings.writeVarint(p - previous)
                previous = p
            }
            events += s.positions.count
        }
        let body = directory.bytes + postings.bytes
        var w = ByteWriter()
        w.write(LogFormat.streamIndexMagic)
        w.write(UInt16(1))
        w.write(UInt16(0))
        w.write(first)
        w.write(UInt32(streams.count))
        w.write(UInt32(events))
        w.write(UInt32(postings.count))
        w.write(CRC32C.checksum(body))
        w.write(bytes: body)
        return w.bytes
    }

    @Test func `version 2 and later round-trip each stream's first version, count and positions in 20 bytes a stream`() throws {
        let streams: [(stream: StreamID, firstVersion: UInt64, positions: [UInt64])] = [
            (stream("pet-1"), 0, [100, 101, 105]), (stream("order-7"), 102, [102]), (stream("cart-3"), 2, [103, 104]),
        ]
        let bytes = StreamIndexFile.encode(segmentFirstPosition: 100, streams: streams)
        let file = try #require(StreamIndexFile.load(MappedFile(copying: bytes, path: "v2.sidx"), segmentFirstPosition: 100, segmentEvents: 6))
        let content = try bytes.withUnsafeBytes { try #require(CheckedPages($0)).content.count }
        #expect(content < versionOne(first: 100, streams).count - 3 * 12 + 12, "12 bytes a stream fewer, less the heads' varints")
        for s in streams {
            let e = try #require(file.entries(for: Hash128(s.stream.rawValue)).first)
            #expect(e.firstVersion == s.firstVersion && e.count == s.positions.count)
            #expect(try file.positions(of: e) == s.positions)
            #expect(try file.firstPosition(of: e) == s.positions[0])
        }
        // A version 1 file of the same streams, sound in its own layout, is not taken for version 2.
        #expect(StreamIndexFile.load(MappedFile(copying: versionOne(first: 100, streams), path: "v1.sidx"), segmentFirstPosition: 100, segmentEvents: 6) == nil)
    }

    @Test func `a version 1 stream index on disk is rebuilt, and stream reads answer as before`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 40, compactSealedSegments: false, indexRunSegments: 0)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for i in 0..<100 { try await store.append(to: stream("pet-\(i % 3)"), [event("Fed", "{\"i\":\(i)}")]) }
        let before = try await store.readAll(.stream(stream("pet-1"))).map(\.id)
        store.close()
        let sidx = dir.path + "/segments/00000000000000000000.sidx"
        let v2 = try FileSystem.readFile(sidx)
        #expect(v2[4] == StreamIndexFile.version)
        // The first segment's 40 events, as version 1 wrote their index.
        var streams: [String: (UInt64, [UInt64])] = [:]
        for p in 0..<40 {
            let name = "pet-\(p % 3)"
            streams[name, default: (UInt64(p / 3), [])].1.append(UInt64(p))
        }
        try FileSystem.writeAtomically(
            versionOne(first: 0, streams.map { (stream($0.key), $0.value.0, $0.value.1) }), to: sidx, sync: false)
        #expect(StreamIndexFile.headerMatches(path: sidx, segmentFirstPosition: 0, segmentEvents: 40) == false)

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        #expect(try await reopened.readAll(.stream(stream("pet-1"))).map(\.id) == before)
        #expect(try reopened.verify().isOK)
        reopened.close()
        #expect(try FileSystem.readFile(sidx) == v2)
    }
}
