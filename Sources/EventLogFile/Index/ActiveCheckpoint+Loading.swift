import EventLog
import Foundation
import PawtrailIO

/// Taking a checkpoint up: mapping it and checking its every structure against the segment it must belong to.
extension ActiveCheckpoint {
    /// Maps a checkpoint and checks it against the active segment it must belong to.
    ///
    /// - Parameters:
    ///   - path: The checkpoint file.
    ///   - firstPosition: The segment's first position.
    ///   - fd: The segment file, open.
    ///   - durableEnd: Where the head says the segment's acknowledged commits end.
    /// - Returns: The checkpoint, or `nil` when it is missing, belongs to another file, covers more than is durable,
    ///   or fails a check.
    static func load(path: String, firstPosition: UInt64, fd: FileDescriptor, durableEnd: UInt64) -> ActiveCheckpoint? {
        guard FileSystem.exists(path), let m = try? MappedFile(path: path), let file = try? fd.fileID(),
            let checkpoint = decode(m, firstPosition: firstPosition, file: file), checkpoint.content.coveredEnd <= durableEnd,
            let last = checkpoint.content.frames.last
        else { return nil }
        // The last frame covered reads back whole, where the checkpoint says: the file is the one it was built from.
        var scanner = FrameScanner(fd: fd, from: last.offset, to: checkpoint.content.coveredEnd)
        // Its time, too: the last recorded-at in the header is the last frame's, and later appends are recorded no earlier.
        guard let read = try? scanner.next(), read.1 == nil, let found = read.0, found.ref == last,
            found.header.lastRecordedAt == checkpoint.content.lastRecordedAt
        else { return nil }
        return checkpoint
    }

    /// Decodes a mapped checkpoint and checks its structure; `nil` at the first thing wrong.
    static func decode(_ m: MappedFile, firstPosition: UInt64, file: FileID) -> ActiveCheckpoint? {
        let b = m.bytes
        guard b.count >= headerSize, b.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.checkpointMagic,
            b.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version,
            b.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == firstPosition,
            b.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian == file.device,
            b.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian == file.inode,
            b.loadUnaligned(fromByteOffset: 76, as: UInt32.self).littleEndian
                == checksum(header: UnsafeRawBufferPointer(rebasing: b[..<headerSize]), body: UnsafeRawBufferPointer(rebasing: b[headerSize...]))
        else { return nil }
        var content = Content(firstPosition: firstPosition)
        var streamOffsets: [UInt32] = []
        content.coveredEnd = b.loadUnaligned(fromByteOffset: 32, as: UInt64.self).littleEndian
        let eventCount = b.loadUnaligned(fromByteOffset: 40, as: UInt64.self).littleEndian
        content.rawBytes = b.loadUnaligned(fromByteOffset: 48, as: UInt64.self).littleEndian
        content.lastRecordedAt = Timestamp(microsecondsSinceEpoch: b.loadUnaligned(fromByteOffset: 56, as: Int64.self).littleEndian)
        let frameCount = Int(b.loadUnaligned(fromByteOffset: 64, as: UInt32.self).littleEndian)
        let streamCount = Int(b.loadUnaligned(fromByteOffset: 68, as: UInt32.self).littleEndian)
        let idsOffset = Int(b.loadUnaligned(fromByteOffset: 72, as: UInt32.self).littleEndian)
        // Every event is a frame's, a stream's and an id's exactly once; positions stay inside the segment.
        guard frameCount > 0, eventCount > 0, eventCount <= UInt64(UInt32.max), idsOffset >= headerSize, idsOffset <= b.count,
            (b.count - idsOffset) == Int(eventCount) * (keyBytes + positionWidth(eventCount: Int(eventCount))), frameCount <= Int(eventCount), streamCount <= Int(eventCount),
            // Each frame's raw length is 32 bits: a larger total is no sum of the frames', and would overflow as
            // the frames after the checkpoint add theirs.
            content.rawBytes <= UInt64(frameCount) * UInt64(UInt32.max)
        else { return nil }
        var r = Cursor(UnsafeRawBufferPointer(rebasing: b[..<idsOffset]), at: headerSize)
        content.frames.reserveCapacity(frameCount)
        var end = UInt64(LogFormat.segmentHeaderSize)
        var next = firstPosition
        var at: Int64 = 0
        for _ in 0..<frameCount {
            guard let gap = r.varint(), let length = r.varint(), let events = r.varint(), let delta = r.signedVarint() else { return nil }
            let (offset, o1) = end.addingReportingOverflow(gap)
            let (recordedAt, o2) = at.addingReportingOverflow(delta)
            guard !o1, !o2, length >= UInt64(LogFormat.frameOverhead + LogFormat.frameHeaderSize), length <= UInt64(UInt32.max),
                events > 0, events <= eventCount, offset <= content.coveredEnd, length <= content.coveredEnd - offset
            else { return nil }
            content.frames.append(FrameRef(
                firstPosition: next, offset: offset, length: UInt32(length), eventCount: UInt32(events),
                recordedAt: Timestamp(microsecondsSinceEpoch: recordedAt)))
            at = recordedAt
            end = offset + length
            next += events
        }
        guard end == content.coveredEnd, next - firstPosition == eventCount else { return nil }
        var seen = Coverage(count: Int(eventCount))
        var previousName: UnsafeRawBufferPointer?
        streamOffsets.reserveCapacity(streamCount)
        for _ in 0..<streamCount {
            streamOffsets.append(UInt32(r.offset))
            guard let name = r.lengthPrefixed(), let firstVersion = r.varint(), let count = r.varint(),
                name.count > 0, count > 0, count <= eventCount, firstVersion <= UInt64.max - count,
                previousName.map({ compare($0, name) < 0 }) ?? true, isValidUTF8(name)
            else { return nil }
            previousName = name
            // Positions as deltas, the first from the segment's first position: kept relative here.
            var relative: UInt64 = 0
            for i in 0..<Int(count) {
                guard let delta = r.varint(), i == 0 || delta > 0, delta < eventCount, relative + delta < eventCount else { return nil }
                relative += delta
                guard seen.mark(Int(relative)) else { return nil }
                // A stream's version never exceeds its position (each earlier version is an earlier event): a first
                // version past it would leave the versions of the events after the checkpoint beyond UInt64.
                if i == 0, firstVersion > firstPosition + relative { return nil }
            }
        }
        guard r.isAtEnd, seen.isFull else { return nil }
        let checkpoint = ActiveCheckpoint(mapped: m, content: content, idsOffset: idsOffset, idCount: Int(eventCount), streamOffsets: streamOffsets)
        // Every event's id once, in the order of (key, position): read straight from the entries, which are what
        // ``idEntry(at:)`` reads.
        var idSeen = Coverage(count: Int(eventCount))
        let width = positionWidth(eventCount: Int(eventCount))
        let entrySize = keyBytes + width
        let ids = b.baseAddress! + idsOffset
        var previous: (prefix: UInt64, relative: UInt64)?
        precondition(keyBytes == 6, "the id entries are read as six key bytes")
        for i in 0..<Int(eventCount) {
            let e = ids + i * entrySize
            let prefix = UInt64(e.loadUnaligned(as: UInt32.self).littleEndian)
                | UInt64(e.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian) << 32
            var relative = UInt64(e.loadUnaligned(fromByteOffset: 6, as: UInt16.self).littleEndian)
                | UInt64(e.load(fromByteOffset: 8, as: UInt8.self)) << 16
            if width == 4 { relative |= UInt64(e.load(fromByteOffset: 9, as: UInt8.self)) << 24 }
            guard relative < eventCount, idSeen.mark(Int(relative)), previous.map({ ($0.prefix, $0.relative) < (prefix, relative) }) ?? true else {
                return nil
            }
            previous = (prefix, relative)
        }
        return checkpoint
    }

    /// Whether bytes are valid UTF-8, at the cost of a scan when they are ASCII (stream ids mostly are).
    private static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80 || String(validating: bytes, as: UTF8.self) != nil
    }

    /// One bit an event the checkpoint covers, to find an event claimed twice or by none.
    private struct Coverage {
        private var words: [UInt64]
        private let count: Int

        init(count: Int) {
            self.count = count
            words = [UInt64](repeating: 0, count: (count + 63) / 64)
        }

        /// Marks an event (below `count`); `false` when it was marked already.
        @inline(__always)
        mutating func mark(_ i: Int) -> Bool {
            let bit = UInt64(1) << UInt64(i & 63)
            guard words[i >> 6] & bit == 0 else { return false }
            words[i >> 6] |= bit
            return true
        }

        /// Whether every event is marked.
        var isFull: Bool {
            let whole = count / 64
            for w in 0..<whole where words[w] != .max { return false }
            let rest = count % 64
            return rest == 0 || words[whole] == (UInt64(1) << UInt64(rest)) - 1
        }
    }

    /// Reads the checkpoint's varints as ``ByteReader`` does (at most ten bytes, the tenth carrying bit 63 only),
    /// inlined: a checkpoint holds about two varints an event, all read at every open.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            self.bytes = bytes
            self.offset = offset
        }

        var isAtEnd: Bool { offset == bytes.count }

        @inline(__always)
        mutating func varint() -> UInt64? {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                let b = bytes[offset]
                offset += 1
                guard shift < 63 || (shift == 63 && b <= 1) else { return nil }
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return result }
                shift += 7
            }
            return nil
        }

        @inline(__always)
        mutating func signedVarint() -> Int64? {
            guard let u = varint() else { return nil }
            return Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1)
        }

        /// A varint length, then that many bytes.
        mutating func lengthPrefixed() -> UnsafeRawBufferPointer? {
            guard let n = varint(), n <= UInt64(bytes.count - offset) else { return nil }
            defer { offset += Int(n) }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(n))])
        }
    }
}
