import Foundation
import PawtrailIO

/// A sealed segment's event-id index (`.eidx`): a 64-bit hash of every event id with its position, so an
/// idempotency check finds the candidates for an id in one bucket and confirms them by reading the event.
///
/// The hashes are sorted and split into 2^b buckets by their top b bits (about four ids per bucket). Each entry
/// keeps only the 24 bits after the bucket's (a fingerprint: with the bucket, 24 + b bits of the hash) and the
/// event's position relative to the segment, in 3 bytes (4 when a segment holds 2^24 events or more): 6 or 7
/// bytes an event, plus about one byte for the bucket table, where whole 8-byte prefixes and 4-byte positions took
/// 12. A lookup reads one bucket boundary pair and a few entries instead of a binary search's 17 probes.
///
/// Layout: header (magic u32, version u16 = 3, bucket bits u8, position width u8, segment first position u64,
/// count u32, CRC32C of the bucket table and entries u32) = 24 bytes; bucket table of 2^b + 1 u32 entry indexes
/// (where each bucket starts, then the count); entries of (fingerprint u24, relative position u24 or u32), sorted by
/// hash; then a page table (``CheckedPages``). Version 2 had no page table: every append's first id lookup checked
/// every index file whole, about 7 bytes an event of the store.
///
/// Appends open it with ``open(_:segmentFirstPosition:segmentEvents:)`` and check the pages each probe reads;
/// `log verify` checks it whole with ``load(_:segmentFirstPosition:segmentEvents:)``.
struct EventIDIndexFile {
    static let headerSize = 24
    static let version: UInt16 = 3
    static let fingerprintBits = 24

    let mapped: MappedFile
    /// The page checks still to make, for a file opened for lookups; `nil` once checked whole (or built in memory).
    let pages: CheckedPages?
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
            return Hash128.fmix(lo ^ Hash128.fmix(hi &+ 0x9E37_79B9_7F4A_7C15))
        }
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

    /// How many leading bits of the keys order the entries (then their positions). An index keeps at most 48 of a
    /// key's bits (a bucket of up to 24 and a 24-bit fingerprint), so the rest must not decide the order: the active
    /// segment's checkpoint keeps only these (``ActiveCheckpoint/keyBits``), and the index a seal builds from its
    /// keys is then the same bytes as one built from the events (`log verify` compares them). Indexes written when
    /// whole keys ordered the entries differ from this order only where two ids share these 48 bits and their low
    /// bits order them against their positions.
    static let orderedKeyBits = 48

    static func encode(segmentFirstPosition: UInt64, ids: [(key: UInt64, position: UInt64)]) -> [UInt8] {
        let shift = UInt64(64 - orderedKeyBits)
        let sorted = ids.sorted { ($0.key >> shift, $0.position) < ($1.key >> shift, $1.position) }
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
        CheckedPages.appendTable(to: &w.bytes)
        return w.bytes
    }

    /// Maps and checks an index file (version, checksum, bucket table, count, every position inside the segment);
    /// `nil` when it fails a check (an index of an older version too), and the caller rebuilds it.
    static func load(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> EventIDIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return load(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    /// Whether an index file's header is this version's, names the segment (its first position and event count),
    /// and the file's size is the one the header implies: what can be known from its first 24 bytes. The body (its
    /// checksum) is checked by ``load(path:segmentFirstPosition:segmentEvents:)``.
    static func headerMatches(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> Bool {
        checksumIfHeaderMatches(path: path, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents) != nil
    }

    /// The body's checksum from an index file's header, when the header matches (see
    /// ``headerMatches(path:segmentFirstPosition:segmentEvents:)``); `nil` otherwise. An index run's `.ridx` names
    /// its `.eidx` by this checksum, so the pair is checked at open without reading the `.eidx` body.
    static func checksumIfHeaderMatches(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> UInt32? {
        guard FileSystem.exists(path), let fd = try? FileDescriptor.open(path, .readOnly), let size = try? fd.size(),
            let h = try? fd.read(at: 0, count: headerSize), h.count == headerSize
        else { return nil }
        return h.withUnsafeBytes { b in
            let bits = Int(b[6])
            let positionWidth = Int(b[7])
            let n = Int(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
            let matches = b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.eventIDIndexMagic
                && b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version
                && b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == segmentFirstPosition
                && bits <= 24 && (positionWidth == 3 || positionWidth == 4) && UInt64(n) == segmentEvents
                && UInt64(contentSize(bits: bits, count: n, positionWidth: positionWidth) + CheckedPages.tableSize(
                    forContent: contentSize(bits: bits, count: n, positionWidth: positionWidth))) == size
            return matches ? b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian : nil
        }
    }

    /// The size of the header, bucket table and entries.
    static func contentSize(bits: Int, count: Int, positionWidth: Int) -> Int {
        headerSize + ((1 << bits) + 1) * 4 + count * (3 + positionWidth)
    }

    /// The header's figures, `nil` unless it is this version's, names the segment and implies the file's size.
    private static func header(_ b: UnsafeRawBufferPointer, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> (bits: Int, positionWidth: Int, count: Int)? {
        guard b.count >= headerSize, b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.eventIDIndexMagic,
            b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version,
            b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == segmentFirstPosition
        else { return nil }
        let bits = Int(b[6])
        let positionWidth = Int(b[7])
        let n = Int(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        guard bits <= 24, positionWidth == 3 || positionWidth == 4, UInt64(n) == segmentEvents else { return nil }
        let content = contentSize(bits: bits, count: n, positionWidth: positionWidth)
        guard content + CheckedPages.tableSize(forContent: content) == b.count else { return nil }
        return (bits, positionWidth, n)
    }

    /// Opens an index file for lookups: its header and page table are checked, and each probe checks the pages it
    /// reads. `nil` when it does not belong to the segment or its page table is damaged; the caller rebuilds it.
    static func open(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> EventIDIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return open(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    static func open(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> EventIDIndexFile? {
        guard let h = header(m.bytes, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents),
            let pages = CheckedPages(m.bytes), pages.check(0..<headerSize)
        else { return nil }
        return EventIDIndexFile(mapped: m, pages: pages, segmentFirstPosition: segmentFirstPosition, count: h.count, bucketBits: h.bits, positionWidth: h.positionWidth)
    }

    static func load(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> EventIDIndexFile? {
        let b = m.bytes
        guard let h = header(b, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents), let pages = CheckedPages(b),
            pages.checkAll()
        else { return nil }
        let crc = b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: pages.content[headerSize...])) == crc else { return nil }
        let n = h.count
        let bits = h.bits
        let index = EventIDIndexFile(mapped: m, pages: nil, segmentFirstPosition: segmentFirstPosition, count: n, bucketBits: bits, positionWidth: h.positionWidth)
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

    /// The checksum of the file's body, from its header (a run's `.ridx` names its `.eidx` by it).
    var checksum: UInt32 { mapped.bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian }

    /// The checksum in the header of an encoded file.
    static func checksum(ofEncoded bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian }
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

    /// How many leading bits of each id's hash the file keeps: the bucket's and the fingerprint's.
    var knownBits: Int { bucketBits + Self.fingerprintBits }

    /// Walks the entries in hash order, each as the leading ``knownBits`` bits of its id's hash and its position:
    /// what `log verify` merges across segments to find an id that occurs twice.
    struct Cursor {
        let file: EventIDIndexFile
        private var index = 0
        private var bucket = 0

        /// A cursor over a file checked whole (``load(_:segmentFirstPosition:segmentEvents:)``); `nil` for one opened for
        /// lookups whose pages do not all pass their checksums.
        init?(_ file: EventIDIndexFile) {
            guard file.pages?.checkAll() ?? true else { return nil }
            self.file = file
        }

        /// The next entry, `nil` after the last.
        mutating func next() -> (prefix: UInt64, position: UInt64)? {
            guard index < file.count else { return nil }
            while file.bucketStart(bucket + 1) <= index { bucket += 1 }
            let o = file.entriesStart + index * file.entrySize
            let b = file.mapped.bytes
            let fp = UInt64(b[o]) | UInt64(b[o + 1]) << 8 | UInt64(b[o + 2]) << 16
            let position = file.segmentFirstPosition + UInt64(file.relativePosition(at: index))
            index += 1
            return (UInt64(bucket) << UInt64(EventIDIndexFile.fingerprintBits) | fp, position)
        }
    }

    /// What a lookup reads, as plain values: a store probes every sealed segment's index for each new event id,
    /// and a flat array of these is scanned without reference counting or bounds checks on the way. Valid while
    /// this index's mapping is (its segment holds it).
    struct Probe {
        let base: UnsafeRawPointer
        /// The page checks of a file opened for lookups.
        let pages: CheckedPages?
        /// The file, for errors.
        let path: String
        let bucketBits: Int
        let entriesStart: Int
        let entrySize: Int
        let positionWidth: Int
        let firstPosition: UInt64
        let count: Int

        /// The positions of the entries with the key's bucket and fingerprint, to confirm by reading the event.
        /// - Throws: ``IndexDamage`` when a page the probe reads fails its checksum or the bucket lies outside the
        ///   entries; what `body` throws.
        @inline(__always)
        func forEachCandidate(key: UInt64, _ body: (UInt64) throws -> Bool) throws {
            let bucket = EventIDIndexFile.bucket(key, bits: bucketBits)
            let fp = EventIDIndexFile.fingerprint(key, bits: bucketBits)
            let tableOffset = EventIDIndexFile.headerSize + bucket * 4
            if let pages, !pages.check(tableOffset..<(tableOffset + 8)) {
                throw IndexDamage(file: path, reason: "a page of the bucket table fails its checksum")
            }
            let table = base + tableOffset
            var i = Int(table.loadUnaligned(as: UInt32.self).littleEndian)
            let end = Int(table.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
            guard i <= end, end <= count else { throw IndexDamage(file: path, reason: "bucket \(bucket) spans entries \(i) to \(end) of \(count)") }
            if let pages, i < end, !pages.check((entriesStart + i * entrySize)..<(entriesStart + end * entrySize)) {
                throw IndexDamage(file: path, reason: "a page of the entries fails its checksum")
            }
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
            base: mapped.bytes.baseAddress!, pages: pages, path: mapped.path, bucketBits: bucketBits, entriesStart: entriesStart,
            entrySize: entrySize, positionWidth: positionWidth, firstPosition: segmentFirstPosition, count: count)
    }

    /// Visits the positions whose event id hashes to the same bucket and fingerprint (candidates to confirm by
    /// reading the event), without allocating: nearly every lookup of a new id finds none.
    func forEachCandidate(key: UInt64, _ body: (UInt64) throws -> Bool) throws {
        try probe.forEachCandidate(key: key, body)
    }
}
