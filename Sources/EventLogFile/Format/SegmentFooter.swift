import EventLog
import PawtrailIO

/// The footer that seals a segment, followed by a fixed trailer at the end of the file.
///
/// Footer frame: `u32 length | body | u32 CRC32C(body)`; body = type u8 (3), layout u8, reserved u16, event
/// count u64, commit count u64, last position u64, first and last recorded-at i64, data end u64, raw bytes u64,
/// whole-segment CRC32C u32 (over bytes 0 up to the data end), index entry count u32, then the sparse
/// position/time index: entries of (first position u64, frame offset u64, recorded-at i64).
/// Trailer (24 bytes): footer offset u64, footer frame length u32, CRC32C of those 12 bytes u32, "PAWTSEAL".
struct SegmentFooter: Hashable {
    struct IndexEntry: Hashable {
        var firstPosition: UInt64
        var offset: UInt64
        var recordedAt: Timestamp
    }

    var layout: SegmentLayout
    var eventCount: UInt64
    var commitCount: UInt64
    var lastPosition: UInt64
    var firstRecordedAt: Timestamp
    var lastRecordedAt: Timestamp
    var dataEnd: UInt64
    var rawBytes: UInt64
    var checksum: UInt32
    var index: [IndexEntry]

    func encodedWithTrailer() -> [UInt8] {
        var body = ByteWriter(capacity: 80 + index.count * 24)
        body.write(FrameType.footer.rawValue)
        body.write(layout.rawValue)
        body.write(UInt16(0))
        body.write(eventCount)
        body.write(commitCount)
        body.write(lastPosition)
        body.write(firstRecordedAt.microsecondsSinceEpoch)
        body.write(lastRecordedAt.microsecondsSinceEpoch)
        body.write(dataEnd)
        body.write(rawBytes)
        body.write(checksum)
        body.write(UInt32(index.count))
        for e in index {
            body.write(e.firstPosition)
            body.write(e.offset)
            body.write(e.recordedAt.microsecondsSinceEpoch)
        }
        var w = ByteWriter(capacity: body.count + 8 + LogFormat.trailerSize)
        w.write(UInt32(body.count))
        w.write(bytes: body.bytes)
        w.write(CRC32C.checksum(body.bytes))
        var trailer = ByteWriter(capacity: LogFormat.trailerSize)
        trailer.write(dataEnd)
        trailer.write(UInt32(w.count))
        trailer.write(CRC32C.checksum(trailer.bytes))
        trailer.write(bytes: LogFormat.trailerMagic)
        w.write(bytes: trailer.bytes)
        return w.bytes
    }

    /// Reads the trailer at the end of a file; `nil` when the file has none (an active segment).
    static func readTrailer(fd: FileDescriptor, fileSize: UInt64) throws -> (footerOffset: UInt64, footerLength: Int)? {
        guard fileSize >= UInt64(LogFormat.segmentHeaderSize + LogFormat.trailerSize) else { return nil }
        let t = try fd.read(at: fileSize - UInt64(LogFormat.trailerSize), count: LogFormat.trailerSize)
        guard t.count == LogFormat.trailerSize, Array(t[16..<24]) == LogFormat.trailerMagic else { return nil }
        return t.withUnsafeBytes { raw -> (UInt64, Int)? in
            let crc = raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<12])) == crc else { return nil }
            let off = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian
            let len = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
            guard off < fileSize, UInt64(len) < fileSize, off + UInt64(len) + UInt64(LogFormat.trailerSize) == fileSize else { return nil }
            return (off, len)
        }
    }

    /// Reads and checks a sealed segment's footer.
    static func read(fd: FileDescriptor, file: String, footerOffset: UInt64, footerLength: Int) throws -> SegmentFooter {
        let bytes = try fd.read(at: footerOffset, count: footerLength)
        guard bytes.count == footerLength else {
            throw EventStoreError.corrupted(location: file, offset: footerOffset, reason: "segment footer is cut short")
        }
        return try decode(bytes, file: file, footerOffset: footerOffset)
    }

    /// The footer frame's bytes (``encodedWithTrailer()`` without the trailer), as a cache keeps them.
    var frameBytes: [UInt8] { Array(encodedWithTrailer().dropLast(LogFormat.trailerSize)) }

    /// Decodes and checks a footer frame.
    ///
    /// - Parameters:
    ///   - bytes: The frame: length, body and checksum.
    ///   - file: The segment's file, for errors.
    ///   - footerOffset: Where the frame starts in it, for errors.
    /// - Returns: The footer.
    /// - Throws: `EventStoreError.corrupted` naming what does not check.
    static func decode(_ bytes: [UInt8], file: String, footerOffset: UInt64) throws -> SegmentFooter {
        let footerLength = bytes.count
        func corrupt(_ reason: String) -> EventStoreError {
            .corrupted(location: file, offset: footerOffset, reason: reason)
        }
        guard footerLength >= 8 + 68 else { throw corrupt("segment footer is cut short") }
        return try bytes.withUnsafeBytes { raw in
            let bodyLength = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
            guard bodyLength + 8 == footerLength else { throw corrupt("segment footer length does not match its trailer") }
            let body = UnsafeRawBufferPointer(rebasing: raw[4..<(4 + bodyLength)])
            let crc = raw.loadUnaligned(fromByteOffset: 4 + bodyLength, as: UInt32.self).littleEndian
            guard CRC32C.checksum(body) == crc else { throw corrupt("segment footer checksum mismatch") }
            do {
                var r = ByteReader(body)
                guard try r.read(UInt8.self) == FrameType.footer.rawValue else { throw corrupt("not a footer frame") }
                guard let layout = SegmentLayout(rawValue: try r.read(UInt8.self)) else { throw corrupt("unknown layout in footer") }
                _ = try r.read(UInt16.self)
                let events = try r.read(UInt64.self)
                let commits = try r.read(UInt64.self)
                let last = try r.read(UInt64.self)
                let firstAt = try r.read(Int64.self)
                let lastAt = try r.read(Int64.self)
                let dataEnd = try r.read(UInt64.self)
                let rawBytes = try r.read(UInt64.self)
                let checksum = try r.read(UInt32.self)
                let n = Int(try r.read(UInt32.self))
                guard r.remaining == n * 24 else { throw corrupt("footer index size does not match its count") }
                var index: [IndexEntry] = []
                index.reserveCapacity(n)
                for _ in 0..<n {
                    index.append(
                        IndexEntry(
                            firstPosition: try r.read(UInt64.self), offset: try r.read(UInt64.self),
                            recordedAt: Timestamp(microsecondsSinceEpoch: try r.read(Int64.self))))
                }
                return SegmentFooter(
                    layout: layout, eventCount: events, commitCount: commits, lastPosition: last,
                    firstRecordedAt: Timestamp(microsecondsSinceEpoch: firstAt), lastRecordedAt: Timestamp(microsecondsSinceEpoch: lastAt),
                    dataEnd: dataEnd, rawBytes: rawBytes, checksum: checksum, index: index)
            } catch let e as ByteReaderError {
                throw corrupt("footer: \(e)")
            }
        }
    }
}
