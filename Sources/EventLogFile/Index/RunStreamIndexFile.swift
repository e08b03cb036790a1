import EventLog
import PawtrailIO

/// An index run's stream index (`.ridx`): for each stream with events in a run of consecutive sealed segments,
/// its last version in the run and which of the run's segments hold its events. An append asks one run instead
/// of each of its segments for a stream's current version; a stream read visits only the segments listed.
///
/// Built by merging the segments' `.sidx` files, which know streams only by their 128-bit hash. A hash that any
/// segment lists twice (two streams sharing it) is marked ambiguous: lookups then ask the listed segments, which
/// tell the streams apart by reading an event.
///
/// Layout: header (magic u32, version u16, reserved u16, run first position u64, segment count u32, stream count
/// u32, list bytes u32, CRC32C of everything after the header u32, the run's segments' identity u64, the CRC32C of
/// the run's `.eidx` body u32, reserved u32) = 48 bytes. The identity (``IndexRun/identity(of:)``) and the `.eidx`
/// checksum bind the file to the very segments and id index it was built with, so that run files left from
/// another store, or from before its segments were replaced, are never taken for this one's. Then a directory
/// sorted by stream hash:
/// (hash high u64, hash low u64, last version u64 or all ones when ambiguous, list offset u32, list count u32) =
/// 32 bytes each; lists: per stream, the ordinals (0-based within the run) of the segments holding it, ascending,
/// as varint deltas; then a page table (``CheckedPages``), which version 1 did not have (its first lookup checked the
/// whole file, about 33 bytes a stream). Derived data: written without a flush, rebuilt when missing or invalid.
/// Lookups open it with ``open(_:runFirstPosition:runLastPosition:segmentCount:identity:idsChecksum:)`` and check
/// each page they read; `log verify` checks it whole.
struct RunStreamIndexFile {
    struct Entry {
        var hash: Hash128
        /// `nil` when the hash is ambiguous within the run.
        var lastVersion: UInt64?
        var listOffset: Int
        var listCount: Int
    }

    static let headerSize = 48
    static let entrySize = 32
    static let version: UInt16 = 2
    private static let ambiguous = UInt64.max

    let mapped: MappedFile
    /// The page checks still to make, for a file opened for lookups; `nil` once checked whole.
    let pages: CheckedPages?
    let runFirstPosition: UInt64
    let runLastPosition: UInt64
    let segmentCount: Int
    let streamCount: Int
    private let listBytes: Int

    /// Builds the file's bytes from the stream indexes of a run's segments, oldest first.
    ///
    /// - Parameters:
    ///   - runFirstPosition: The run's first position.
    ///   - segments: The segments' stream indexes, oldest first.
    ///   - identity: The segments' ``IndexRun/identity(of:)``.
    ///   - idsChecksum: The checksum in the header of the run's `.eidx` file.
    /// - Returns: The file's bytes.
    /// - Throws: ``IndexDamage`` when a segment's index is damaged.
    static func encode(runFirstPosition: UInt64, segments: [StreamIndexFile], identity: UInt64, idsChecksum: UInt32) throws -> [UInt8] {
        var directory = ByteWriter()
        var lists = ByteWriter()
        var streams = 0
        // A k-way merge of the segments' sorted directories: memory stays at the output's size.
        try HashMerge.forEachHash(segments.map(HashMerge.Source.init)) { hash, occurrences in
            let last = occurrences[occurrences.count - 1]
            let e = try segments[last.source].entry(at: last.entry)
            var ordinals: [Int] = []
            var isAmbiguous = false
            for o in occurrences {
                if ordinals.last == o.source { isAmbiguous = true } else { ordinals.append(o.source) }
            }
            directory.write(hash.high)
            directory.write(hash.low)
            directory.write(isAmbiguous ? ambiguous : e.firstVersion + UInt64(e.count) - 1)
            directory.write(UInt32(lists.count))
            directory.write(UInt32(ordinals.count))
            var previous = 0
            for o in ordinals {
                lists.writeVarint(UInt64(o - previous))
                previous = o
            }
            streams += 1
        }
        var body = directory.bytes
        body.append(contentsOf: lists.bytes)
        var w = ByteWriter(capacity: headerSize + body.count)
        w.write(LogFormat.runStreamIndexMagic)
        w.write(version)
        w.write(UInt16(0))
        w.write(runFirstPosition)
        w.write(UInt32(segments.count))
        w.write(UInt32(streams))
        w.write(UInt32(lists.count))
        w.write(CRC32C.checksum(body))
        w.write(identity)
        w.write(idsChecksum)
        w.write(UInt32(0))
        w.write(bytes: body)
        CheckedPages.appendTable(to: &w.bytes)
        return w.bytes
    }

    /// Maps and checks an index file: that it was built from these segments and this `.eidx`, its checksum and
    /// its structure (hashes strictly ascending, every list inside the file, non-empty, and naming only the run's
    /// segments). `nil` when it does not belong to the run or fails a check; the caller then ignores it, and the
    /// writer builds it again.
    static func load(
        path: String, runFirstPosition: UInt64, runLastPosition: UInt64, segmentCount: Int, identity: UInt64, idsChecksum: UInt32
    ) -> RunStreamIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return load(
            m, runFirstPosition: runFirstPosition, runLastPosition: runLastPosition, segmentCount: segmentCount, identity: identity,
            idsChecksum: idsChecksum)
    }

    /// Whether a file's header is this version's and binds it to the run (first position, segment count, the
    /// segments' identity, the `.eidx` checksum), and the file's size is the one the header implies: what can be
    /// known from its first 48 bytes, which an open reads. The body is checked by
    /// ``load(path:runFirstPosition:runLastPosition:segmentCount:identity:idsChecksum:)`` at first use.
    static func headerMatches(path: String, runFirstPosition: UInt64, segmentCount: Int, identity: UInt64, idsChecksum: UInt32) -> Bool {
        guard FileSystem.exists(path), let fd = try? FileDescriptor.open(path, .readOnly), let size = try? fd.size(),
            let h = try? fd.read(at: 0, count: headerSize), h.count == headerSize
        else { return false }
        return h.withUnsafeBytes { b in
            headerFits(b, runFirstPosition: runFirstPosition, segmentCount: segmentCount, identity: identity, idsChecksum: idsChecksum)
                && contentSize(b) + CheckedPages.tableSize(forContent: contentSize(b)) == Int(size)
        }
    }

    /// The size of the header, directory and lists a header names.
    private static func contentSize(_ b: UnsafeRawBufferPointer) -> Int {
        headerSize + Int(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian) * entrySize
            + Int(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
    }

    /// Opens a run's stream index for lookups: its header and page table are checked, its pages as lookups read them;
    /// `nil` when it does not belong to the run or its page table is damaged.
    static func open(
        _ m: MappedFile, runFirstPosition: UInt64, runLastPosition: UInt64, segmentCount: Int, identity: UInt64, idsChecksum: UInt32
    ) -> RunStreamIndexFile? {
        let b = m.bytes
        guard headerFits(b, runFirstPosition: runFirstPosition, segmentCount: segmentCount, identity: identity, idsChecksum: idsChecksum),
            contentSize(b) + CheckedPages.tableSize(forContent: contentSize(b)) == b.count, let pages = CheckedPages(b),
            pages.check(0..<headerSize)
        else { return nil }
        let streams = Int(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let listBytes = Int(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
        return RunStreamIndexFile(
            mapped: m, pages: pages, runFirstPosition: runFirstPosition, runLastPosition: runLastPosition, segmentCount: segmentCount,
            streamCount: streams, listBytes: listBytes)
    }

    private static func headerFits(
        _ b: UnsafeRawBufferPointer, runFirstPosition: UInt64, segmentCount: Int, identity: UInt64, idsChecksum: UInt32
    ) -> Bool {
        b.count >= headerSize && b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.runStreamIndexMagic
            && b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version
            && b.loadUnaligned(fromByteOffset: 6, as: UInt16.self) == 0
            && b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == runFirstPosition
            && Int(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian) == segmentCount
            && b.loadUnaligned(fromByteOffset: 32, as: UInt64.self).littleEndian == identity
            && b.loadUnaligned(fromByteOffset: 40, as: UInt32.self).littleEndian == idsChecksum
            && b.loadUnaligned(fromByteOffset: 44, as: UInt32.self) == 0
    }

    static func load(
        _ m: MappedFile, runFirstPosition: UInt64, runLastPosition: UInt64, segmentCount: Int, identity: UInt64, idsChecksum: UInt32
    ) -> RunStreamIndexFile? {
        let b = m.bytes
        guard headerFits(b, runFirstPosition: runFirstPosition, segmentCount: segmentCount, identity: identity, idsChecksum: idsChecksum),
            contentSize(b) + CheckedPages.tableSize(forContent: contentSize(b)) == b.count, let pages = CheckedPages(b), pages.checkAll()
        else { return nil }
        let streams = Int(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let listBytes = Int(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
        let crc = b.loadUnaligned(fromByteOffset: 28, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: pages.content[headerSize...])) == crc else { return nil }
        let file = RunStreamIndexFile(
            mapped: m, pages: nil, runFirstPosition: runFirstPosition, runLastPosition: runLastPosition, segmentCount: segmentCount,
            streamCount: streams, listBytes: listBytes)
        var previous: Hash128?
        for i in 0..<streams {
            // A version never exceeds its position: one past the run's last would let the next append's overflow.
            guard let e = try? file.entry(at: i), previous.map({ $0 < e.hash }) ?? true, (try? file.forEachSegmentOrdinal(of: e) { _ in }) != nil
            else { return nil }
            previous = e.hash
        }
        return file
    }

    // MARK: - Reading

    /// The bytes of a range of the file, its pages checked.
    @inline(__always)
    private func bytes(_ range: Range<Int>) throws(IndexDamage) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= listsStart + listBytes else {
            throw IndexDamage(file: mapped.path, reason: "a read at bytes \(range) lies outside the index")
        }
        if let pages, !pages.check(range) {
            throw IndexDamage(file: mapped.path, reason: "a page of the index fails its checksum (bytes \(range))")
        }
        return mapped.bytes
    }

    private var listsStart: Int { Self.headerSize + streamCount * Self.entrySize }

    /// The hash of the i-th directory entry.
    @inline(__always)
    private func hash(at i: Int) throws(IndexDamage) -> Hash128 {
        let o = Self.headerSize + i * Self.entrySize
        let b = try bytes(o..<(o + 16))
        return Hash128(high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian, low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian)
    }

    /// The i-th entry, checked against the run: its list inside the file, of at most the run's segments, and a last
    /// version that is no later than the run's last position (a version never exceeds its position).
    func entry(at i: Int) throws(IndexDamage) -> Entry {
        guard i >= 0, i < streamCount else { throw IndexDamage(file: mapped.path, reason: "entry \(i) of \(streamCount)") }
        let o = Self.headerSize + i * Self.entrySize
        let b = try bytes(o..<(o + Self.entrySize))
        let last = b.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self).littleEndian
        let e = Entry(
            hash: Hash128(
                high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian),
            lastVersion: last == Self.ambiguous ? nil : last,
            listOffset: Int(b.loadUnaligned(fromByteOffset: o + 24, as: UInt32.self).littleEndian),
            listCount: Int(b.loadUnaligned(fromByteOffset: o + 28, as: UInt32.self).littleEndian))
        guard e.listCount > 0, e.listCount <= segmentCount, (e.lastVersion ?? 0) <= runLastPosition, e.listOffset < listBytes else {
            throw IndexDamage(file: mapped.path, reason: "entry \(i) does not fit the run")
        }
        return e
    }

    /// The entry for a stream hash, found by ``HashSearch`` without allocating.
    func entry(for hash: Hash128) throws(IndexDamage) -> Entry? {
        let lo = try HashSearch.lowerBound(of: hash, count: streamCount) { i throws(IndexDamage) in try self.hash(at: i) }
        guard lo < streamCount, try self.hash(at: lo) == hash else { return nil }
        return try entry(at: lo)
    }


    /// The ordinals, within the run, of the segments holding an entry's stream, ascending.
    ///
    /// - Throws: When the list runs past the file or names a segment outside the run (checked on load).
    func segmentOrdinals(of e: Entry) throws -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(e.listCount)
        try forEachSegmentOrdinal(of: e) { out.append($0) }
        return out
    }

    /// Visits the ordinals of ``segmentOrdinals(of:)`` without collecting them (loading checks every list so).
    func forEachSegmentOrdinal(of e: Entry, _ body: (Int) -> Void) throws {
        let start = listsStart + e.listOffset
        let end = min(listsStart + listBytes, start + 10 * e.listCount)
        let b = try bytes(start..<end)
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: b[..<end]), offset: start)
        var ordinal: UInt64 = 0
        for i in 0..<e.listCount {
            let delta = try r.readVarint()
            guard delta < UInt64(segmentCount), (i == 0 || delta > 0) else {
                throw ByteReaderError(reason: "segment ordinal out of order or outside the run", offset: r.offset)
            }
            ordinal += delta
            guard ordinal < UInt64(segmentCount) else {
                throw ByteReaderError(reason: "segment ordinal outside the run", offset: r.offset)
            }
            body(Int(ordinal))
        }
    }
}
