import EventLog
import Foundation
import PawtrailIO

/// A checkpoint of the active segment's index (`segments/<first position>.ckpt`): what a scan of the segment's
/// frames up to a commit boundary gives (the frames, each stream's versions and positions, every event id), so that
/// opening the store scans only the frames after it instead of decompressing and decoding the whole active segment,
/// which every CLI call would otherwise pay (120 ms for 130,000 events in the active segment, against 10 ms for an empty
/// store).
///
/// Derived data, like the sealed segments' index files: written without a flush by the writer's upkeep and at close,
/// encoded from the process's index of the segment (``encode(index:file:)``, the same bytes as a scan of the frames
/// gives: ``build(segment:fd:firstPosition:upTo:previous:decompressor:dictionaries:)``, which `log verify` compares
/// every checkpoint with); taken up only when it names the segment's file (device and inode), covers no more
/// than the head says is durable, passes its checksum and every structural check, and the last frame it covers reads
/// back with the checksum it names. Anything else is passed over, and the open scans the segment as before.
///
/// The event ids stay in the mapped file, sorted by their key (``EventIDIndexFile/key(_:)``, 48 bits of it) for a binary
/// search: building a dictionary of them was most of a scan's cost. So do the streams, found by bisecting their ids'
/// bytes (the file's order): decoding each into a dictionary (a string, an array and a hash insert each) was most of
/// an open's cost on a segment of many short streams (an order or a booking each), and the first event indexed
/// after the checkpoint for a stream copies just that one out (``ActiveSegment``).
///
/// Layout: header (magic u32, version u16, reserved u16, segment first position u64, device u64, inode u64, covered
/// end u64, event count u64, raw bytes u64, last recorded-at i64 in microseconds, frame count u32, stream count u32,
/// ids offset u32, CRC32C of the header before it and of everything after the header u32) = 80 bytes; frames (offset after the previous frame's
/// end, length, event count as varints; first recorded-at as a signed varint delta from the previous frame's);
/// streams sorted by the bytes of their ids (id length and bytes, first version, count, positions as varint deltas,
/// the first from the segment's first position); ids (the top 48 bits of the key, then the position relative to
/// the segment in 3 bytes, or 4 when the checkpoint covers more than 2^24 events) sorted.
///
/// Version 2 keeps 48 bits of each id's key where version 1 kept 64, and 3-byte positions where it kept 4: 9 bytes an
/// event instead of 12 (the active segment itself takes about 73 an event in the benchmark). 48 bits are all that
/// the ids are ever asked for: a lookup confirms its candidates by reading the events, and the sealed segment's id
/// index built from them keeps at most 48 (``EventIDIndexFile``: a bucket of up to 24 bits and a 24-bit fingerprint). A version-1
/// checkpoint is passed over, and the next one is built by a scan.
final class ActiveCheckpoint {
    static let headerSize = 80
    static let version: UInt16 = 2
    /// How many leading bits of an id's key the checkpoint keeps: those the id indexes are ordered by.
    static let keyBits = EventIDIndexFile.orderedKeyBits
    static let keyBytes = keyBits / 8

    /// The index of a segment's frames from its header up to `coveredEnd`.
    struct Content {
        var firstPosition: UInt64
        var coveredEnd = UInt64(LogFormat.segmentHeaderSize)
        var frames: [FrameRef] = []
        var streams: [StreamID: ActiveSegment.Stream] = [:]
        var rawBytes: UInt64 = 0
        var lastRecordedAt: Timestamp?

        var eventCount: UInt64 { frames.last.map { $0.lastPosition + 1 - firstPosition } ?? 0 }
    }

    let mapped: MappedFile
    /// What the checkpoint covers, without its streams (see ``stream(_:)`` and ``fullContent()``).
    let content: Content
    let idsOffset: Int
    let idCount: Int
    /// The bytes of a relative position in an id entry: 3, or 4 when the checkpoint covers more than 2^24 events.
    let positionWidth: Int
    /// The bytes of a relative position in this checkpoint's id entries.
    var idPositionWidth: Int { positionWidth }
    private var idEntrySize: Int { Self.keyBytes + positionWidth }
    /// Where each stream's entry starts in the mapped file, in the file's order (by the bytes of the stream ids).
    let streamOffsets: [UInt32]

    init(mapped: MappedFile, content: Content, idsOffset: Int, idCount: Int, streamOffsets: [UInt32]) {
        self.mapped = mapped
        self.content = content
        self.idsOffset = idsOffset
        self.idCount = idCount
        self.positionWidth = Self.positionWidth(eventCount: idCount)
        self.streamOffsets = streamOffsets
    }

    // MARK: - Streams

    /// The number of streams the checkpoint holds.
    var streamCount: Int { streamOffsets.count }

    /// A stream's entry, read from where the load checked it.
    private func streamEntry(at i: Int) -> (name: UnsafeRawBufferPointer, stream: ActiveSegment.Stream) {
        var r = ByteReader(mapped.bytes, offset: Int(streamOffsets[i]))
        do {
            let name = try r.readView(try r.readLength())
            let firstVersion = try r.readVarint()
            let count = Int(try r.readVarint())
            var positions: [UInt64] = []
            positions.reserveCapacity(count)
            var p = content.firstPosition
            for _ in 0..<count {
                p += try r.readVarint()
                positions.append(p)
            }
            return (name, ActiveSegment.Stream(firstVersion: firstVersion, positions: positions))
        } catch {
            // The file is mapped read-only and replaced only by renaming another over it: what the load checked
            // stays as it was.
            preconditionFailure("a checkpoint stream entry checked at load no longer decodes: \(error)")
        }
    }

    /// The encoded entry of the i-th stream, as the file holds it.
    func streamEntryBytes(at i: Int) -> UnsafeRawBufferPointer {
        let end = i + 1 < streamOffsets.count ? Int(streamOffsets[i + 1]) : idsOffset
        return UnsafeRawBufferPointer(rebasing: mapped.bytes[Int(streamOffsets[i])..<end])
    }

    /// The encoded i-th id entry, as the file holds it.
    func idEntryBytes(at i: Int) -> UnsafeRawBufferPointer {
        let start = idsOffset + i * idEntrySize
        return UnsafeRawBufferPointer(rebasing: mapped.bytes[start..<(start + idEntrySize)])
    }

    /// The name of the i-th stream, without decoding the rest of its entry.
    func streamName(at i: Int) -> UnsafeRawBufferPointer {
        var r = ByteReader(mapped.bytes, offset: Int(streamOffsets[i]))
        guard let n = try? r.readLength(), let name = try? r.readView(n) else {
            preconditionFailure("a checkpoint stream name checked at load no longer decodes")
        }
        return name
    }

    /// Where a stream's entry is in the file's order, found by bisecting the ids' bytes; `nil` when the checkpoint
    /// holds none of its events.
    private func entryIndex(of id: StreamID) -> Int? {
        var key = id.rawValue
        return key.withUTF8 { utf8 -> Int? in
            let k = UnsafeRawBufferPointer(utf8)
            var lo = 0
            var hi = streamOffsets.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Self.compare(streamName(at: mid), k) < 0 { lo = mid + 1 } else { hi = mid }
            }
            guard lo < streamOffsets.count, Self.compare(streamName(at: lo), k) == 0 else { return nil }
            return lo
        }
    }

    /// A stream's first version and positions in the events the checkpoint covers, `nil` when it has none there.
    /// It decodes the stream's whole position list: ask ``lastVersion(of:)`` for its version alone.
    func stream(_ id: StreamID) -> ActiveSegment.Stream? {
        entryIndex(of: id).map { streamEntry(at: $0).stream }
    }

    /// A stream's last version in the events the checkpoint covers, from its entry's head alone (its positions
    /// are not decoded); `nil` when it has none there.
    func lastVersion(of id: StreamID) -> UInt64? {
        guard let i = entryIndex(of: id) else { return nil }
        var r = ByteReader(mapped.bytes, offset: Int(streamOffsets[i]))
        guard let n = try? r.readLength(), (try? r.readView(n)) != nil, let firstVersion = try? r.readVarint(), let count = try? r.readVarint()
        else {
            preconditionFailure("a checkpoint stream entry checked at load no longer decodes")
        }
        return firstVersion + count - 1
    }

    /// Visits the streams the checkpoint holds, in the order of their ids' bytes.
    ///
    /// - Parameters:
    ///   - keep: Which streams to visit, asked before a stream's positions are decoded.
    ///   - body: Takes each stream visited.
    func forEachStream(where keep: (StreamID) -> Bool = { _ in true }, _ body: (StreamID, ActiveSegment.Stream) throws -> Void) rethrows {
        for i in 0..<streamOffsets.count {
            let id = StreamID(unchecked: String(decoding: streamName(at: i), as: UTF8.self))
            guard keep(id) else { continue }
            try body(id, streamEntry(at: i).stream)
        }
    }

    /// The hash of every stream id the checkpoint holds (``Hash128``, as the stream indexes key them), from the
    /// bytes in the file.
    func streamHashes() -> [Hash128] {
        (0..<streamOffsets.count).map { Hash128(bytes: streamName(at: $0)) }
    }

    /// ``content`` with every stream decoded: what a checkpoint built on this one starts from.
    func fullContent() -> Content {
        var c = content
        c.streams.reserveCapacity(streamOffsets.count)
        forEachStream { c.streams[$0] = $1 }
        return c
    }

    /// Byte order of two stream ids (memcmp, then the shorter first): the order the file keeps them in.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let n = min(a.count, b.count)
        if n > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, n)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    /// The checkpoint file of a segment file.
    static func path(ofSegment segmentPath: String) -> String { String(segmentPath.dropLast(4)) + ".ckpt" }

    // MARK: - Event ids

    /// The bytes of a relative position in the id entries of a checkpoint covering `eventCount` events.
    static func positionWidth(eventCount: Int) -> Int { eventCount <= 1 << 24 ? 3 : 4 }

    /// The kept part of a key: its top ``keyBits`` bits.
    static func prefix(_ key: UInt64) -> UInt64 { key >> UInt64(64 - keyBits) }

    /// A key with the bits the checkpoint does not keep as zeros: what ``idEntry(at:)`` gives back for it. Keys
    /// from the events are cut so before they are sorted with those from an earlier checkpoint, so that a
    /// checkpoint built on another is the same bytes as one built by a scan (`log verify` compares them).
    static func keptKey(_ key: UInt64) -> UInt64 { prefix(key) << UInt64(64 - keyBits) }

    /// The kept part of the i-th id entry's key.
    private func prefix(at i: Int) -> UInt64 {
        let b = mapped.bytes.baseAddress! + idsOffset + i * idEntrySize
        var v: UInt64 = 0
        for k in 0..<Self.keyBytes { v |= UInt64(b.load(fromByteOffset: k, as: UInt8.self)) << UInt64(8 * k) }
        return v
    }

    /// The i-th id entry, in key order: its key with the bits the checkpoint does not keep as zeros (see
    /// ``keyBits``), and its position.
    func idEntry(at i: Int) -> (key: UInt64, position: UInt64) {
        let b = mapped.bytes.baseAddress! + idsOffset + i * idEntrySize + Self.keyBytes
        var relative: UInt64 = 0
        for k in 0..<positionWidth { relative |= UInt64(b.load(fromByteOffset: k, as: UInt8.self)) << UInt64(8 * k) }
        return (prefix(at: i) << UInt64(64 - Self.keyBits), content.firstPosition + relative)
    }

    /// The positions of the events whose id's key shares its kept bits with this one (more than one only when ids
    /// do: the caller confirms each by reading the event).
    /// Whether any of the keys has an entry: one pass, each search starting where the one before ended.
    ///
    /// - Parameter keys: Keys in ascending order.
    func containsAny(sortedKeys keys: [UInt64]) -> Bool {
        var lo = 0
        for key in keys {
            let wanted = Self.prefix(key)
            var hi = idCount
            while lo < hi {
                let mid = (lo + hi) / 2
                if prefix(at: mid) < wanted { lo = mid + 1 } else { hi = mid }
            }
            guard lo < idCount else { return false }
            if prefix(at: lo) == wanted { return true }
        }
        return false
    }

    func positions(forKey key: UInt64) -> [UInt64] {
        let wanted = Self.prefix(key)
        var lo = 0
        var hi = idCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if prefix(at: mid) < wanted { lo = mid + 1 } else { hi = mid }
        }
        var out: [UInt64] = []
        while lo < idCount, prefix(at: lo) == wanted {
            out.append(idEntry(at: lo).position)
            lo += 1
        }
        return out
    }
}
