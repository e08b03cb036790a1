import Foundation
import EventLog
import PawtrailIO

/// A sealed segment's stream index (`.sidx`): for each stream with events in the segment, its first version
/// there and the positions of its events. Within one segment a stream's versions are contiguous, so the
/// versions are implied by the first version and the count.
///
/// Layout: header (magic u32, version u16, reserved u16, segment first position u64, stream count u32, event
/// count u32, postings bytes u32, CRC32C of everything after the header u32) = 32 bytes; directory sorted by
/// stream hash: (hash high u64, hash low u64, first version u64, count u32, postings offset u32) = 32 bytes each;
/// postings: per stream, positions as varint deltas (the first relative to the segment's first position).
/// Derived data: written without a flush, checked on load, rebuilt from the segment when missing or invalid.
struct StreamIndexFile {
    struct Entry {
        var hash: Hash128
        var firstVersion: UInt64
        var count: Int
        var postingsOffset: Int
    }

    static let headerSize = 32
    static let entrySize = 32

    let mapped: MappedFile
    let segmentFirstPosition: UInt64
    let streamCount: Int
    let eventCount: Int

    /// Builds the file's bytes from a segment's streams.
    static func encode(segmentFirstPosition: UInt64, streams: [(stream: StreamID, firstVersion: UInt64, positions: [UInt64])]) -> [UInt8] {
        let sorted = streams.map { (Hash128($0.stream.rawValue), $0) }.sorted { $0.0 < $1.0 }
        var directory = ByteWriter(capacity: sorted.count * entrySize)
        var postings = ByteWriter()
        var events = 0
        for (hash, s) in sorted {
            directory.write(hash.high)
            directory.write(hash.low)
            directory.write(s.firstVersion)
            directory.write(UInt32(s.positions.count))
            directory.write(UInt32(postings.count))
            var previous = segmentFirstPosition
            for p in s.positions {
                postings.writeVarint(p - previous)
                previous = p
            }
            events += s.positions.count
        }
        var body = directory.bytes
        body.append(contentsOf: postings.bytes)
        var w = ByteWriter(capacity: headerSize + body.count)
        w.write(LogFormat.streamIndexMagic)
        w.write(UInt16(1))
        w.write(UInt16(0))
        w.write(segmentFirstPosition)
        w.write(UInt32(sorted.count))
        w.write(UInt32(events))
        w.write(UInt32(postings.count))
        w.write(CRC32C.checksum(body))
        w.write(bytes: body)
        return w.bytes
    }

    /// Maps and checks an index file: its checksum and its structure (every stream holds at least one event,
    /// the counts add up to the segment's, postings stay inside the file, hashes are sorted). `nil` when it
    /// does not belong to the segment or fails a check; the caller then rebuilds it from the segment.
    static func load(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return load(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    static func load(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard m.bytes.count >= headerSize else { return nil }
        let b = m.bytes
        guard b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.streamIndexMagic,
            b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == segmentFirstPosition
        else { return nil }
        let streams = Int(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        let events = Int(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let postings = Int(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
        guard headerSize + streams * entrySize + postings == b.count, UInt64(events) == segmentEvents else { return nil }
        let crc = b.loadUnaligned(fromByteOffset: 28, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[headerSize...])) == crc else { return nil }
        let file = StreamIndexFile(mapped: m, segmentFirstPosition: segmentFirstPosition, streamCount: streams, eventCount: events)
        var total = 0
        var previous: Hash128?
        for i in 0..<streams {
            let e = file.entry(at: i)
            guard e.count > 0, e.postingsOffset < postings, previous.map({ $0 <= e.hash }) ?? true,
                e.firstVersion <= UInt64.max - UInt64(e.count)
            else { return nil }
            previous = e.hash
            total += e.count
        }
        guard total == events else { return nil }
        return file
    }

    func entry(at i: Int) -> Entry {
        let o = Self.headerSize + i * Self.entrySize
        let b = mapped.bytes
        return Entry(
            hash: Hash128(
                high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian),
            firstVersion: b.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self).littleEndian,
            count: Int(b.loadUnaligned(fromByteOffset: o + 24, as: UInt32.self).littleEndian),
            postingsOffset: Int(b.loadUnaligned(fromByteOffset: o + 28, as: UInt32.self).littleEndian))
    }

    /// The entries for a stream hash (more than one only on a 128-bit hash collision).
    func entries(for hash: Hash128) -> [Entry] {
        guard let first = firstEntry(for: hash) else { return [] }
        var out = [entry(at: first)]
        var i = first + 1
        while i < streamCount, entry(at: i).hash == hash {
            out.append(entry(at: i))
            i += 1
        }
        return out
    }

    /// The index of the first entry with a stream hash, found without allocating (appends look up every
    /// stream they write this way).
    func firstEntry(for hash: Hash128) -> Int? {
        let b = mapped.bytes
        var lo = 0
        var hi = streamCount
        while lo < hi {
            let mid = (lo + hi) / 2
            let o = Self.headerSize + mid * Self.entrySize
            let h = Hash128(
                high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian)
            if h < hash { lo = mid + 1 } else { hi = mid }
        }
        guard lo < streamCount, entry(at: lo).hash == hash else { return nil }
        return lo
    }

    /// The positions of an entry's events, in version order.
    func positions(of e: Entry) throws(ByteReaderError) -> [UInt64] {
        let start = Self.headerSize + streamCount * Self.entrySize + e.postingsOffset
        var r = ByteReader(mapped.bytes, offset: start)
        var out: [UInt64] = []
        out.reserveCapacity(e.count)
        var p = segmentFirstPosition
        for _ in 0..<e.count {
            let (sum, overflow) = p.addingReportingOverflow(try r.readVarint())
            guard !overflow else { throw ByteReaderError(reason: "position overflows", offset: r.offset) }
            p = sum
            out.append(p)
        }
        return out
    }

    /// Every hash in the index, in order.
    func allHashes() -> [Hash128] {
        (0..<streamCount).map { entry(at: $0).hash }
    }
}

/// A sealed segment's event-id index (`.eidx`): a 64-bit hash of every event id with its position, so an
/// idempotency check finds the candidates for an id in one bucket and confirms them by reading the event.
///
/// The hashes are sorted and split into 2^b buckets by their top b bits (about four ids per bucket). Each entry
/// keeps only the 24 bits after the bucket's (a fingerprint: with the bucket, 24 + b bits of the hash) and the
/// event's position relative to the segment, in 3 bytes (4 when a segment holds 2^24 events or more): 6 or 7
/// bytes an event, plus about one byte for the bucket table, where whole 8-byte prefixes and 4-byte positions took
/// 12. A lookup reads one bucket boundary pair and a few entries instead of a binary search's 17 probes.
///
/// Layout: header (magic u32, version u16 = 2, bucket bits u8, position width u8, segment first position u64,
/// count u32, CRC32C of the rest u32) = 24 bytes; bucket table of 2^b + 1 u32 entry indexes (where each bucket
/// starts, then the count); entries of (fingerprint u24, relative position u24 or u32), sorted by hash.
struct EventIDIndexFile {
    static let headerSize = 24
    static let version: UInt16 = 2
    static let fingerprintBits = 24

    let mapped: MappedFile
    let segmentFirstPosition: UInt64
    let count: Int
    let bucketBits: Int
    let positionWidth: Int

    private var entrySize: Int { 3 + positionWidth }
    private var entriesStart: Int { Self.headerSize + ((1 << bucketBits) + 1) * 4 }

    /// The 64-bit hash an event id is indexed by: the id's two halves mixed (MurmurHash3's finalizer), so that
    /// ids that are not random, such as time-ordered UUIDv7s, still spread evenly over the buckets. Part of the
    /// file format: never change it.
    static func key(_ id: UUID) -> UInt64 {
        withUnsafeBytes(of: id.uuid) { raw in
            let lo = raw.loadUnaligned(as: UInt64.self).littleEndian
            let hi = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
            return fmix64(lo ^ fmix64(hi &+ 0x9E37_79B9_7F4A_7C15))
        }
    }

    private static func fmix64(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }

    /// About four entries a bucket.
    static func bucketBits(count: Int) -> Int {
        guard count >= 8 else { return 0 }
        return min(24, (Int.bitWidth - 1 - count.leadingZeroBitCount) - 2)
    }

    private static func bucket(_ key: UInt64, bits: Int) -> Int {
        bits == 0 ? 0 : Int(key >> UInt64(64 - bits))
    }

    private static func fingerprint(_ key: UInt64, bits: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: (key << UInt64(bits)) >> UInt64(64 - fingerprintBits))
    }

    static func encode(segmentFirstPosition: UInt64, ids: [(key: UInt64, position: UInt64)]) -> [UInt8] {
        let sorted = ids.sorted { ($0.key, $0.position) < ($1.key, $1.position) }
        let bits = bucketBits(count: sorted.count)
        let maxRelative = sorted.map { $0.position - segmentFirstPosition }.max() ?? 0
        let positionWidth = maxRelative < (1 << 24) ? 3 : 4
        var body = ByteWriter(capacity: ((1 << bits) + 1) * 4 + sorted.count * (3 + positionWidth))
        var next = 0
        for b in 0..<(1 << bits) {
            body.write(UInt32(next))
            while next < sorted.count, bucket(sorted[next].key, bits: bits) == b { next += 1 }
        }
        body.write(UInt32(sorted.count))
        for e in sorted {
            let fp = fingerprint(e.key, bits: bits)
            let rel = UInt32(e.position - segmentFirstPosition)
            body.bytes.append(UInt8(truncatingIfNeeded: fp))
            body.bytes.append(UInt8(truncatingIfNeeded: fp >> 8))
            body.bytes.append(UInt8(truncatingIfNeeded: fp >> 16))
            for i in 0..<positionWidth { body.bytes.append(UInt8(truncatingIfNeeded: rel >> (8 * i))) }
        }
        var w = ByteWriter(capacity: headerSize + body.count)
        w.write(LogFormat.eventIDIndexMagic)
        w.write(version)
        w.write(UInt8(bits))
        w.write(UInt8(positionWidth))
        w.write(segmentFirstPosition)
        w.write(UInt32(sorted.count))
        w.write(CRC32C.checksum(body.bytes))
        w.write(bytes: body.bytes)
        return w.bytes
    }

    /// Maps and checks an index file (version, checksum, bucket table, count, every position inside the segment);
    /// `nil` when it fails a check (an index of an older version too), and the caller rebuilds it.
    static func load(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> EventIDIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return load(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    static func load(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> EventIDIndexFile? {
        guard m.bytes.count >= headerSize else { return nil }
        let b = m.bytes
        guard b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.eventIDIndexMagic,
            b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version,
            b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == segmentFirstPosition
        else { return nil }
        let bits = Int(b[6])
        let positionWidth = Int(b[7])
        let n = Int(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        guard bits <= 24, positionWidth == 3 || positionWidth == 4, UInt64(n) == segmentEvents,
            headerSize + ((1 << bits) + 1) * 4 + n * (3 + positionWidth) == b.count
        else { return nil }
        let crc = b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[headerSize...])) == crc else { return nil }
        let index = EventIDIndexFile(mapped: m, segmentFirstPosition: segmentFirstPosition, count: n, bucketBits: bits, positionWidth: positionWidth)
        var previous = 0
        for i in 0...(1 << bits) {
            let start = index.bucketStart(i)
            guard start >= previous, start <= n else { return nil }
            previous = start
        }
        guard index.bucketStart(0) == 0, index.bucketStart(1 << bits) == n else { return nil }
        for i in 0..<n {
            guard UInt64(index.relativePosition(at: i)) < segmentEvents else { return nil }
        }
        return index
    }

    private func bucketStart(_ bucket: Int) -> Int {
        Int(mapped.bytes.loadUnaligned(fromByteOffset: Self.headerSize + bucket * 4, as: UInt32.self).littleEndian)
    }

    private func relativePosition(at i: Int) -> UInt32 {
        let o = entriesStart + i * entrySize + 3
        let b = mapped.bytes
        var v = UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16
        if positionWidth == 4 { v |= UInt32(b[o + 3]) << 24 }
        return v
    }

    /// What a lookup reads, as plain values: a store probes every sealed segment's index for each new event id,
    /// and a flat array of these is scanned without reference counting or bounds checks on the way. Valid while
    /// this index's mapping is (its segment holds it).
    struct Probe {
        let base: UnsafeRawPointer
        let bucketBits: Int
        let entriesStart: Int
        let entrySize: Int
        let positionWidth: Int
        let firstPosition: UInt64

        /// The positions of the entries with the key's bucket and fingerprint, to confirm by reading the event.
        @inline(__always)
        func forEachCandidate(key: UInt64, _ body: (UInt64) throws -> Bool) rethrows {
            let bucket = EventIDIndexFile.bucket(key, bits: bucketBits)
            let fp = EventIDIndexFile.fingerprint(key, bits: bucketBits)
            let table = base + EventIDIndexFile.headerSize + bucket * 4
            var i = Int(table.loadUnaligned(as: UInt32.self).littleEndian)
            let end = Int(table.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
            while i < end {
                let entry = base + entriesStart + i * entrySize
                let f = UInt32(entry.load(as: UInt8.self)) | UInt32(entry.load(fromByteOffset: 1, as: UInt8.self)) << 8
                    | UInt32(entry.load(fromByteOffset: 2, as: UInt8.self)) << 16
                if f > fp { return }
                if f == fp {
                    var rel = UInt64(entry.load(fromByteOffset: 3, as: UInt8.self)) | UInt64(entry.load(fromByteOffset: 4, as: UInt8.self)) << 8
                        | UInt64(entry.load(fromByteOffset: 5, as: UInt8.self)) << 16
                    if positionWidth == 4 { rel |= UInt64(entry.load(fromByteOffset: 6, as: UInt8.self)) << 24 }
                    guard try body(firstPosition + rel) else { return }
                }
                i += 1
            }
        }
    }

    /// This index as a ``Probe``.
    var probe: Probe {
        Probe(
            base: mapped.bytes.baseAddress!, bucketBits: bucketBits, entriesStart: entriesStart, entrySize: entrySize,
            positionWidth: positionWidth, firstPosition: segmentFirstPosition)
    }

    /// Visits the positions whose event id hashes to the same bucket and fingerprint (candidates to confirm by
    /// reading the event), without allocating: nearly every lookup of a new id finds none.
    func forEachCandidate(key: UInt64, _ body: (UInt64) throws -> Bool) rethrows {
        try probe.forEachCandidate(key: key, body)
    }
}
