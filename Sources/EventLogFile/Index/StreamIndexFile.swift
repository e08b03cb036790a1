import Foundation
import EventLog
import PawtrailIO

/// A sealed segment's stream index (`.sidx`): for each stream with events in the segment, its first version
/// there and the positions of its events. Within one segment a stream's versions are contiguous, so the
/// versions are implied by the first version and the count.
///
/// Layout (version 3): header (magic u32, version u16, reserved u16, segment first position u64, stream count u32,
/// event count u32, postings bytes u32, CRC32C of the directory and postings u32) = 32 bytes; directory sorted by
/// stream hash: (hash high u64, hash low u64, postings offset u32) = 20 bytes each; postings: per stream, its first
/// version and its event count (varints), then its positions as varint deltas (the first relative to the segment's
/// first position); then a page table (``CheckedPages``). Version 2 had no page table, so every first use checked
/// the whole file (about 4 bytes an event); version 1 kept the first version (u64) and the count (u32) in the
/// directory, 32 bytes a stream.
///
/// Derived data: written without a flush, rebuilt from the segment when missing, damaged or of another version.
/// Lookups open it with ``open(_:segmentFirstPosition:segmentEvents:)``, which reads its header and page table,
/// and check each page they read (their accessors throw ``IndexDamage``); `log verify` and a rebuild check it whole
/// with ``load(_:segmentFirstPosition:segmentEvents:)``.
struct StreamIndexFile {
    struct Entry {
        var hash: Hash128
        var firstVersion: UInt64
        var count: Int
        var postingsOffset: Int
    }

    static let headerSize = 32
    static let entrySize = 20
    static let version: UInt16 = 3

    let mapped: MappedFile
    /// The page checks still to make, for a file opened for lookups; `nil` once checked whole (or built in memory).
    let pages: CheckedPages?
    let segmentFirstPosition: UInt64
    let streamCount: Int
    let eventCount: Int
    private let postingsBytes: Int

    private var postingsStart: Int { Self.headerSize + streamCount * Self.entrySize }

    /// Builds the file's bytes from a segment's streams.
    static func encode(segmentFirstPosition: UInt64, streams: [(stream: StreamID, firstVersion: UInt64, positions: [UInt64])]) -> [UInt8] {
        let sorted = streams.map { (Hash128($0.stream.rawValue), $0) }.sorted { $0.0 < $1.0 }
        var directory = ByteWriter(capacity: sorted.count * entrySize)
        var postings = ByteWriter()
        var events = 0
        for (hash, s) in sorted {
            directory.write(hash.high)
            directory.write(hash.low)
            directory.write(UInt32(postings.count))
            postings.writeVarint(s.firstVersion)
            postings.writeVarint(UInt64(s.positions.count))
            var previous = segmentFirstPosition
            for p in s.positions {
                // Positions only go up in a segment; `log verify` encodes damaged data too (a frame repeated), whose
                // index then fails to match or decode rather than trap here.
                postings.writeVarint(p &- previous)
                previous = p
            }
            events += s.positions.count
        }
        var body = directory.bytes
        body.append(contentsOf: postings.bytes)
        var w = ByteWriter(capacity: headerSize + body.count)
        w.write(LogFormat.streamIndexMagic)
        w.write(Self.version)
        w.write(UInt16(0))
        w.write(segmentFirstPosition)
        w.write(UInt32(sorted.count))
        w.write(UInt32(events))
        w.write(UInt32(postings.count))
        w.write(CRC32C.checksum(body))
        w.write(bytes: body)
        CheckedPages.appendTable(to: &w.bytes)
        return w.bytes
    }

    /// The header's figures: streams, events and postings bytes; `nil` unless it is this version's, names the segment,
    /// and implies the file's size.
    private static func header(_ b: UnsafeRawBufferPointer, size: Int, segmentFirstPosition: UInt64, segmentEvents: UInt64)
        -> (streams: Int, events: Int, postings: Int)?
    {
        guard b.count >= headerSize, b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.streamIndexMagic,
            b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version,
            b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == segmentFirstPosition
        else { return nil }
        let streams = Int(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        let events = Int(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let postings = Int(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
        let content = headerSize + streams * entrySize + postings
        guard UInt64(events) == segmentEvents, content + CheckedPages.tableSize(forContent: content) == size else { return nil }
        return (streams, events, postings)
    }

    /// Whether an index file's header names the segment (its first position and event count) and the file's size
    /// is the one the header implies: what can be known from its first 32 bytes, which an open of the store reads.
    static func headerMatches(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> Bool {
        guard FileSystem.exists(path), let fd = try? FileDescriptor.open(path, .readOnly), let size = try? fd.size(),
            let h = try? fd.read(at: 0, count: headerSize), h.count == headerSize
        else { return false }
        return h.withUnsafeBytes { header($0, size: Int(size), segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents) } != nil
    }

    /// Opens an index file for lookups: its header and page table are checked, its pages as lookups read them.
    /// `nil` when it does not belong to the segment or its page table is damaged; the caller then rebuilds it.
    static func open(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return open(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    static func open(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard let h = header(m.bytes, size: m.bytes.count, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents),
            let pages = CheckedPages(m.bytes), pages.check(0..<headerSize)
        else { return nil }
        return StreamIndexFile(mapped: m, pages: pages, segmentFirstPosition: segmentFirstPosition, streamCount: h.streams, eventCount: h.events, postingsBytes: h.postings)
    }

    /// Maps and checks an index file whole: its checksum and its structure (every stream holds at least one event,
    /// the counts add up to the segment's, postings stay inside the file, hashes are sorted). `nil` when it
    /// does not belong to the segment or fails a check; the caller then rebuilds it from the segment.
    static func load(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return load(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    static func load(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        let b = m.bytes
        guard let h = header(b, size: b.count, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents),
            let pages = CheckedPages(b), pages.checkAll()
        else { return nil }
        let crc = b.loadUnaligned(fromByteOffset: 28, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: pages.content[headerSize...])) == crc else { return nil }
        let file = StreamIndexFile(mapped: m, pages: nil, segmentFirstPosition: segmentFirstPosition, streamCount: h.streams, eventCount: h.events, postingsBytes: h.postings)
        var total = 0
        var previous: Hash128?
        for i in 0..<h.streams {
            // A stream's version never exceeds its position, so its first version here lies before the segment's
            // end: one at the top of the range would let the next append's version overflow (found by fuzzing the
            // checkpoint, which had the same check).
            guard let e = try? file.entry(at: i), e.count > 0, e.count <= h.events, e.postingsOffset < h.postings,
                previous.map({ $0 <= e.hash }) ?? true, e.firstVersion < segmentFirstPosition + segmentEvents
            else { return nil }
            previous = e.hash
            total += e.count
        }
        guard total == h.events else { return nil }
        return file
    }

    // MARK: - Reading

    /// The bytes of a range of the file, its pages checked.
    @inline(__always)
    private func bytes(_ range: Range<Int>) throws(IndexDamage) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= postingsStart + postingsBytes else {
            throw IndexDamage(file: mapped.path, reason: "a read at bytes \(range) lies outside the index")
        }
        if let pages, !pages.check(range) {
            throw IndexDamage(file: mapped.path, reason: "a page of the index fails its checksum (bytes \(range))")
        }
        return mapped.bytes
    }

    /// The hash of the i-th directory entry.
    @inline(__always)
    private func hash(at i: Int) throws(IndexDamage) -> Hash128 {
        let o = Self.headerSize + i * Self.entrySize
        let b = try bytes(o..<(o + 16))
        return Hash128(high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian, low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian)
    }

    /// The i-th stream's entry: its hash, and from the head of its postings its first version and count;
    /// `postingsOffset` is where its positions start.
    func entry(at i: Int) throws(IndexDamage) -> Entry {
        guard i >= 0, i < streamCount else { throw IndexDamage(file: mapped.path, reason: "entry \(i) of \(streamCount)") }
        let o = Self.headerSize + i * Self.entrySize
        let b = try bytes(o..<(o + Self.entrySize))
        let offset = Int(b.loadUnaligned(fromByteOffset: o + 16, as: UInt32.self).littleEndian)
        guard offset < postingsBytes else { throw IndexDamage(file: mapped.path, reason: "entry \(i) points past the postings") }
        let head = postingsStart + offset
        let headBytes = try bytes(head..<min(head + 20, postingsStart + postingsBytes))
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: headBytes[..<(postingsStart + postingsBytes)]), offset: head)
        do {
            let firstVersion = try r.readVarint()
            let count = Int(clamping: try r.readVarint())
            return Entry(
                hash: Hash128(
                    high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                    low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian),
                firstVersion: firstVersion, count: count, postingsOffset: r.offset - postingsStart)
        } catch {
            throw IndexDamage(file: mapped.path, reason: "entry \(i): \(error)")
        }
    }

    /// The entries for a stream hash (more than one only on a 128-bit hash collision).
    func entries(for hash: Hash128) throws(IndexDamage) -> [Entry] {
        guard let first = try firstEntry(for: hash) else { return [] }
        var out = [try entry(at: first)]
        var i = first + 1
        while i < streamCount, try self.hash(at: i) == hash {
            out.append(try entry(at: i))
            i += 1
        }
        return out
    }

    /// The index of the first entry with a stream hash, found without allocating (appends look up every
    /// stream they write this way) by ``HashSearch``.
    func firstEntry(for hash: Hash128) throws(IndexDamage) -> Int? {
        let lo = try HashSearch.lowerBound(of: hash, count: streamCount) { i throws(IndexDamage) in try self.hash(at: i) }
        guard lo < streamCount, try self.hash(at: lo) == hash else { return nil }
        return lo
    }

    /// A reader over an entry's positions, their pages checked: positions lie in a segment, so a delta takes at most
    /// 5 bytes.
    private func positionsReader(_ e: Entry) throws(IndexDamage) -> ByteReader {
        let start = postingsStart + e.postingsOffset
        let end = min(postingsStart + postingsBytes, start + 5 * e.count)
        let b = try bytes(start..<end)
        return ByteReader(UnsafeRawBufferPointer(rebasing: b[..<end]), offset: start)
    }

    /// The position of an entry's first event (its first version), without decoding the rest.
    func firstPosition(of e: Entry) throws -> UInt64 {
        var r = try positionsReader(e)
        let (p, overflow) = segmentFirstPosition.addingReportingOverflow(try r.readVarint())
        guard !overflow else { throw IndexDamage(file: mapped.path, reason: "a position overflows") }
        return p
    }

    /// The positions of an entry's events, in version order.
    func positions(of e: Entry) throws -> [UInt64] {
        var r = try positionsReader(e)
        var out: [UInt64] = []
        out.reserveCapacity(e.count)
        var p = segmentFirstPosition
        for _ in 0..<e.count {
            let (sum, overflow) = p.addingReportingOverflow(try r.readVarint())
            guard !overflow else { throw IndexDamage(file: mapped.path, reason: "a position overflows") }
            p = sum
            out.append(p)
        }
        return out
    }
}
