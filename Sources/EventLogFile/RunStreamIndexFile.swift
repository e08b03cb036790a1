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
/// as varint deltas. Derived data: written without a flush, checked on load, rebuilt when missing or invalid.
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
    static let version: UInt16 = 1
    private static let ambiguous = UInt64.max

    let mapped: MappedFile
    let runFirstPosition: UInt64
    let segmentCount: Int
    let streamCount: Int

    /// Builds the file's bytes from the stream indexes of a run's segments, oldest first.
    ///
    /// - Parameters:
    ///   - runFirstPosition: The run's first position.
    ///   - segments: The segments' stream indexes, oldest first.
    ///   - identity: The segments' ``IndexRun/identity(of:)``.
    ///   - idsChecksum: The checksum in the header of the run's `.eidx` file.
    /// - Returns: The file's bytes.
    static func encode(runFirstPosition: UInt64, segments: [StreamIndexFile], identity: UInt64, idsChecksum: UInt32) -> [UInt8] {
        var directory = ByteWriter()
        var lists = ByteWriter()
        var streams = 0
        // A k-way merge of the segments' sorted directories: memory stays at the output's size.
        HashMerge.forEachHash(segments.map(HashMerge.Source.init)) { hash, occurrences in
            let last = occurrences[occurrences.count - 1]
            let e = segments[last.source].entry(at: last.entry)
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
                && UInt64(headerSize) + UInt64(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian) * UInt64(entrySize)
                    + UInt64(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian) == size
        }
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
        guard headerFits(b, runFirstPosition: runFirstPosition, segmentCount: segmentCount, identity: identity, idsChecksum: idsChecksum) else { return nil }
        let streams = Int(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let listBytes = Int(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
        guard headerSize + streams * entrySize + listBytes == b.count else { return nil }
        let crc = b.loadUnaligned(fromByteOffset: 28, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[headerSize...])) == crc else { return nil }
        let file = RunStreamIndexFile(mapped: m, runFirstPosition: runFirstPosition, segmentCount: segmentCount, streamCount: streams)
        var previous: Hash128?
        for i in 0..<streams {
            let e = file.entry(at: i)
            // A version never exceeds its position: one past the run's last would let the next append's overflow.
            guard previous.map({ $0 < e.hash }) ?? true, e.listCount > 0, e.listCount <= segmentCount, (e.lastVersion ?? 0) <= runLastPosition,
                e.listOffset < listBytes, (try? file.forEachSegmentOrdinal(of: e) { _ in }) != nil
            else { return nil }
            previous = e.hash
        }
        return file
    }

    func entry(at i: Int) -> Entry {
        let o = Self.headerSize + i * Self.entrySize
        let b = mapped.bytes
        let last = b.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self).littleEndian
        return Entry(
            hash: Hash128(
                high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian),
            lastVersion: last == Self.ambiguous ? nil : last,
            listOffset: Int(b.loadUnaligned(fromByteOffset: o + 24, as: UInt32.self).littleEndian),
            listCount: Int(b.loadUnaligned(fromByteOffset: o + 28, as: UInt32.self).littleEndian))
    }

    /// The entry for a stream hash, found by ``HashSearch`` without allocating.
    func entry(for hash: Hash128) -> Entry? {
        let lo = HashSearch.lowerBound(of: hash, in: mapped.bytes, directoryAt: Self.headerSize, entrySize: Self.entrySize, count: streamCount)
        guard lo < streamCount else { return nil }
        let e = entry(at: lo)
        return e.hash == hash ? e : nil
    }


    /// The ordinals, within the run, of the segments holding an entry's stream, ascending.
    ///
    /// - Throws: When the list runs past the file or names a segment outside the run (checked on load).
    func segmentOrdinals(of e: Entry) throws(ByteReaderError) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(e.listCount)
        try forEachSegmentOrdinal(of: e) { out.append($0) }
        return out
    }

    /// Visits the ordinals of ``segmentOrdinals(of:)`` without collecting them (loading checks every list so).
    func forEachSegmentOrdinal(of e: Entry, _ body: (Int) -> Void) throws(ByteReaderError) {
        var r = ByteReader(mapped.bytes, offset: Self.headerSize + streamCount * Self.entrySize + e.listOffset)
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
