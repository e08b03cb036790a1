import Foundation
import EventLog
import PawtrailIO

/// A sealed segment's stream index (`.sidx`): for each stream with events in the segment, its first version
/// there and the positions of its events. Within one segment a stream's versions are contiguous, so the
/// versions are implied by the first version and the count.
///
/// Layout (version 2): header (magic u32, version u16, reserved u16, segment first position u64, stream count u32,
/// event count u32, postings bytes u32, CRC32C of everything after the header u32) = 32 bytes; directory sorted by
/// stream hash: (hash high u64, hash low u64, postings offset u32) = 20 bytes each; postings: per stream, its first
/// version and its event count (varints), then its positions as varint deltas (the first relative to the segment's
/// first position). Version 1 kept the first version (u64) and the count (u32) in the directory, 32 bytes a stream:
/// on a segment of 131,072 benchmark events over 10,000 streams, 120 KB more (`ls -l` of the benchmark's store), and
/// more still where streams are many and short (an order or a booking each).
/// Derived data: written without a flush, checked on load, rebuilt from the segment when missing, invalid or of
/// another version.
struct StreamIndexFile {
    struct Entry {
        var hash: Hash128
        var firstVersion: UInt64
        var count: Int
        var postingsOffset: Int
    }

    static let headerSize = 32
    static let entrySize = 20
    static let version: UInt16 = 2

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
        return w.bytes
    }

    /// Maps and checks an index file: its checksum and its structure (every stream holds at least one event,
    /// the counts add up to the segment's, postings stay inside the file, hashes are sorted). `nil` when it
    /// does not belong to the segment or fails a check; the caller then rebuilds it from the segment.
    static func load(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path) else { return nil }
        return load(m, segmentFirstPosition: segmentFirstPosition, segmentEvents: segmentEvents)
    }

    /// Whether an index file's header names the segment (its first position and event count) and the file's size
    /// is the one the header implies: what can be known from its first 32 bytes, which an open reads. The body
    /// (checksum and structure) is checked by ``load(path:segmentFirstPosition:segmentEvents:)`` at first use.
    static func headerMatches(path: String, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> Bool {
        guard FileSystem.exists(path), let fd = try? FileDescriptor.open(path, .readOnly), let size = try? fd.size(),
            let h = try? fd.read(at: 0, count: headerSize), h.count == headerSize
        else { return false }
        return h.withUnsafeBytes { b in
            let streams = UInt64(b.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
            let events = UInt64(b.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
            let postings = UInt64(b.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian)
            return b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.streamIndexMagic
                && b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version
                && b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == segmentFirstPosition
                && UInt64(headerSize) + streams * UInt64(entrySize) + postings == size && events == segmentEvents
        }
    }

    static func load(_ m: MappedFile, segmentFirstPosition: UInt64, segmentEvents: UInt64) -> StreamIndexFile? {
        guard m.bytes.count >= headerSize else { return nil }
        let b = m.bytes
        guard b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.streamIndexMagic,
            b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version,
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
        let postingsStart = headerSize + streams * entrySize
        for i in 0..<streams {
            // Each stream's head (first version, count) must decode inside the postings before `entry(at:)` reads it.
            let o = headerSize + i * entrySize + 16
            let offset = Int(b.loadUnaligned(fromByteOffset: o, as: UInt32.self).littleEndian)
            guard offset < postings else { return nil }
            var r = ByteReader(b, offset: postingsStart + offset)
            guard (try? r.readVarint()) != nil, let n = try? r.readVarint(), n > 0, n <= UInt64(events) else { return nil }
            let e = file.entry(at: i)
            // A stream's version never exceeds its position, so its first version here lies before the segment's
            // end: one at the top of the range would let the next append's version overflow (found by fuzzing the
            // checkpoint, which had the same check).
            guard e.count > 0, e.postingsOffset < postings, previous.map({ $0 <= e.hash }) ?? true,
                e.firstVersion < segmentFirstPosition + segmentEvents
            else { return nil }
            previous = e.hash
            total += e.count
        }
        guard total == events else { return nil }
        return file
    }

    /// The i-th stream's entry: its hash, and from the head of its postings (which ``load(_:segmentFirstPosition:segmentEvents:)``
    /// checked decode) its first version and count; `postingsOffset` is where its positions start.
    func entry(at i: Int) -> Entry {
        let o = Self.headerSize + i * Self.entrySize
        let b = mapped.bytes
        let offset = Int(b.loadUnaligned(fromByteOffset: o + 16, as: UInt32.self).littleEndian)
        let postingsStart = Self.headerSize + streamCount * Self.entrySize
        var r = ByteReader(b, offset: postingsStart + offset)
        let firstVersion = (try? r.readVarint()) ?? 0
        let count = (try? r.readVarint()).map { Int(clamping: $0) } ?? 0
        return Entry(
            hash: Hash128(
                high: b.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                low: b.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian),
            firstVersion: firstVersion, count: count, postingsOffset: r.offset - postingsStart)
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
    /// stream they write this way) by ``HashSearch``.
    func firstEntry(for hash: Hash128) -> Int? {
        let lo = HashSearch.lowerBound(of: hash, in: mapped.bytes, directoryAt: Self.headerSize, entrySize: Self.entrySize, count: streamCount)
        guard lo < streamCount, entry(at: lo).hash == hash else { return nil }
        return lo
    }

    /// The position of an entry's first event (its first version), without decoding the rest.
    func firstPosition(of e: Entry) throws(ByteReaderError) -> UInt64 {
        var r = ByteReader(mapped.bytes, offset: Self.headerSize + streamCount * Self.entrySize + e.postingsOffset)
        let (p, overflow) = segmentFirstPosition.addingReportingOverflow(try r.readVarint())
        guard !overflow else { throw ByteReaderError(reason: "position overflows", offset: r.offset) }
        return p
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
}
