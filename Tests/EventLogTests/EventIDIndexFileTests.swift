import EventLog
@testable import EventLogTestKit
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
            // 24-byte header, bucket table, 6 bytes an entry, then the page table.
            let content = 24 + ((1 << EventIDIndexFile.bucketBits(count: count)) + 1) * 4 + 6 * count
            #expect(bytes.count == content + CheckedPages.tableSize(forContent: content))
            let index = try #require(EventIDIndexFile.load(try mapped(bytes, dir), segmentFirstPosition: first, segmentEvents: UInt64(count)))
            var candidates = 0
            for (i, id) in ids.enumerated() {
                var found: [UInt64] = []
                try index.forEachCandidate(key: EventIDIndexFile.key(id)) { p in
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
                try index.forEachCandidate(key: EventIDIndexFile.key(UUID())) { _ in
                    strays += 1
                    return true
                }
            }
            #expect(strays <= 2)
        }
    }

    /// The flat probe the store scans sealed segments with visits exactly the indexed ids whose hash agrees with
    /// the key's in the bits the index keeps, for ids present and absent, with 3- and 4-byte positions.
    @Test(arguments: [0, 1, 8, 1000, 20_000])
    func `the probe finds exactly the index's candidates`(count: Int) throws {
        let dir = TemporaryDirectory()
        let first: UInt64 = 7_000
        for wide in [false, true] {
            let ids = (0..<count).map { _ in UUID() }
            // Spread positions over more than 2^24 to force 4-byte positions.
            let positions = (0..<count).map { first + UInt64($0) * (wide ? 1000 : 1) }
            let bytes = EventIDIndexFile.encode(segmentFirstPosition: first, ids: zip(ids, positions).map { (EventIDIndexFile.key($0), $1) })
            // The loader checks that an index covers its segment's every event; the wide one is built as it reads.
            let index = wide
                ? EventIDIndexFile(mapped: try mapped(bytes, dir), pages: nil, segmentFirstPosition: first, count: count, bucketBits: Int(bytes[6]), positionWidth: Int(bytes[7]))
                : try #require(EventIDIndexFile.load(try mapped(bytes, dir), segmentFirstPosition: first, segmentEvents: UInt64(count)))
            #expect(index.positionWidth == (wide && count > 1 << 14 ? 4 : 3))
            let probe = index.probe
            // What a lookup must visit: every indexed id whose hash agrees with the key's in the bits the index keeps
            // (bucket and 24-bit fingerprint), in the index's order (by hash, then position).
            let kept = UInt64(Int(bytes[6]) + EventIDIndexFile.fingerprintBits)
            let indexed = Dictionary(
                grouping: zip(ids, positions).map { (key: EventIDIndexFile.key($0), position: $1) }.sorted { ($0.key, $0.position) < ($1.key, $1.position) },
                by: { $0.key >> (64 - kept) })
            for id in ids + (0..<500).map({ _ in UUID() }) {
                let key = EventIDIndexFile.key(id)
                let fromIndex = (indexed[key >> (64 - kept)] ?? []).map(\.position)
                var fromProbe: [UInt64] = []
                try probe.forEachCandidate(key: key) { p in
                    fromProbe.append(p)
                    return true
                }
                #expect(fromProbe == fromIndex)
            }
        }
    }

    @Test func `positions 2^24 events or more into a segment take four bytes`() {
        let ids = (0..<100).map { _ in UUID() }
        let entries = ids.enumerated().map { (EventIDIndexFile.key($0.element), UInt64($0.offset == 99 ? 1 << 24 : $0.offset)) }
        let bytes = EventIDIndexFile.encode(segmentFirstPosition: 0, ids: entries)
        #expect(bytes[7] == 4)
        let content = 24 + ((1 << EventIDIndexFile.bucketBits(count: 100)) + 1) * 4 + 7 * 100
        #expect(bytes.count == content + CheckedPages.tableSize(forContent: content))
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
        // A bucket table out of order, or a position past the segment, under a checksum that matches.
        for (offset, value) in [(24 + 4 * 3, UInt32(400)), (24 + 4 * 5, UInt32(501)), (bytes.count - 3, UInt32(0xFF_FFFF))] {
            var planted = bytes
            withUnsafeBytes(of: value.littleEndian) { v in
                for i in 0..<(offset == bytes.count - 3 ? 3 : 4) { planted[offset + i] = v[i] }
            }
            let crc = planted.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[24...])) }
            withUnsafeBytes(of: crc.littleEndian) { c in for i in 0..<4 { planted[20 + i] = c[i] } }
            #expect(EventIDIndexFile.load(try mapped(planted, dir), segmentFirstPosition: 10, segmentEvents: 500) == nil, "planted at \(offset)")
        }
    }

    /// A version-1 `.eidx` (8-byte id prefixes, 4-byte positions), as stores written before version 2 hold, is
    /// refused and rebuilt, and idempotent retries of the events in that segment are still recognised.
    @Test func `a version-1 event-id index is refused, rebuilt, and retries still find their events`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 40, compactSealedSegments: false)
        let store = try FileEventStore.open(path: dir.path, options: options)
        var requests: [AppendRequest] = []
        for i in 0..<100 {
            let r = AppendRequest(stream: stream("v1-\(i % 3)"), events: [.json("Noted", "{\"i\":\(i)}")])
            requests.append(r)
            _ = try await store.append(r)
        }
        store.close()
        let segments = dir.path + "/" + LogFormat.segmentsDirectory
        let first = segments + "/" + LogFormat.segmentName(firstPosition: 0)
        let eidx = String(first.dropLast(4)) + ".eidx"
        // Rewrite it in the version-1 layout.
        var entries: [(UInt64, UInt32)] = []
        for (i, r) in requests.prefix(40).enumerated() {
            let prefix = withUnsafeBytes(of: r.entries[0].event.id.uuid) { $0.loadUnaligned(as: UInt64.self).littleEndian }
            entries.append((prefix, UInt32(i)))
        }
        entries.sort { $0.0 < $1.0 }
        var body = ByteWriter()
        for (p, rel) in entries {
            body.write(p)
            body.write(rel)
        }
        var w = ByteWriter()
        w.write(LogFormat.eventIDIndexMagic)
        w.write(UInt16(1))
        w.write(UInt16(0))
        w.write(UInt64(0))
        w.write(UInt32(entries.count))
        w.write(CRC32C.checksum(body.bytes))
        w.write(bytes: body.bytes)
        try Data(w.bytes).write(to: URL(fileURLWithPath: eidx))
        #expect(EventIDIndexFile.load(path: eidx, segmentFirstPosition: 0, segmentEvents: 40) == nil)

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        let retried = try await reopened.append(requests[7])
        #expect(retried.wasAlreadyCommitted)
        #expect(retried.firstPosition == 7)
        let rebuilt = try FileSystem.readFile(eidx)
        #expect(rebuilt[4] == EventIDIndexFile.version)
        #expect(try reopened.verify().isOK)
        reopened.close()
    }

    /// The key is part of the file format: these values were computed outside Swift (Python, from the definition:
    /// MurmurHash3's finalizer over the id's little-endian halves), so a change to the mixing shows here.
    @Test func `the key of an id is the format's`() {
        #expect(EventIDIndexFile.key(UUID(uuidString: "00000000-0000-0000-0000-00000000002a")!) == 0x6cac_3a9e_3e8b_a129)
        #expect(EventIDIndexFile.key(UUID(uuidString: "0192f3a1-7c4e-7b21-9d3e-5f6a7b8c9d0e")!) == 0xd823_ddd7_d8dd_f043)
    }
}
