import EventLog
import Foundation
import PawtrailIO

/// The checkpoint's bytes, from an index's content and ids.
extension ActiveCheckpoint {
    /// The checkpoint's bytes.
    ///
    /// - Parameters:
    ///   - content: The index up to a commit boundary; it holds at least one frame.
    ///   - ids: Every event's id key and position, sorted.
    ///   - file: The segment file's identity.
    /// - Returns: The bytes, or `nil` when the ids section would lie beyond the reach of its 32-bit offset.
    static func encode(_ content: Content, ids: [(key: UInt64, position: UInt64)], file: FileID) -> [UInt8]? {
        let positionWidth = positionWidth(eventCount: ids.count)
        var body = ByteWriter(capacity: content.frames.count * 8 + ids.count * (keyBytes + positionWidth + 4))
        var end = UInt64(LogFormat.segmentHeaderSize)
        var at: Int64 = 0
        for f in content.frames {
            body.writeVarint(f.offset - end)
            body.writeVarint(UInt64(f.length))
            body.writeVarint(UInt64(f.eventCount))
            body.writeSignedVarint(f.recordedAt.microsecondsSinceEpoch &- at)
            at = f.recordedAt.microsecondsSinceEpoch
            end = f.offset + UInt64(f.length)
        }
        let order = content.streams.keys.sorted()
        for id in order {
            let s = content.streams[id]!
            body.writeLengthPrefixed(id.rawValue)
            body.writeVarint(s.firstVersion)
            body.writeVarint(UInt64(s.positions.count))
            var previous = content.firstPosition
            for p in s.positions {
                body.writeVarint(p - previous)
                previous = p
            }
        }
        let idsOffset = headerSize + body.count
        guard idsOffset + ids.count * (keyBytes + positionWidth) <= Int(UInt32.max) else { return nil }
        for e in ids {
            let p = prefix(e.key)
            for k in 0..<keyBytes { body.bytes.append(UInt8(truncatingIfNeeded: p >> UInt64(8 * k))) }
            let relative = e.position - content.firstPosition
            for k in 0..<positionWidth { body.bytes.append(UInt8(truncatingIfNeeded: relative >> UInt64(8 * k))) }
        }
        var w = ByteWriter(capacity: headerSize + body.count)
        w.write(LogFormat.checkpointMagic)
        w.write(version)
        w.write(UInt16(0))
        w.write(content.firstPosition)
        w.write(file.device)
        w.write(file.inode)
        w.write(content.coveredEnd)
        w.write(content.eventCount)
        w.write(content.rawBytes)
        w.write(content.lastRecordedAt?.microsecondsSinceEpoch ?? 0)
        w.write(UInt32(content.frames.count))
        w.write(UInt32(order.count))
        w.write(UInt32(idsOffset))
        let crc = w.bytes.withUnsafeBytes { header in body.bytes.withUnsafeBytes { checksum(header: header, body: $0) } }
        w.write(crc)
        w.write(bytes: body.bytes)
        return w.bytes
    }

    /// The checksum of a checkpoint: the header up to the checksum itself, then everything after the header. The
    /// header's figures (raw bytes, last recorded-at) are taken up as they are, so they must be covered too.
    static func checksum(header: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: header[..<(headerSize - 4)]))
        crc.update(body)
        return crc.value
    }

    /// The end offset a checkpoint's header says it covers, unchecked (for `log verify`, which rebuilds the
    /// checkpoint up to there and compares the bytes).
    static func coveredEnd(ofEncoded bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count >= headerSize, bytes.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.checkpointMagic else { return nil }
        return bytes.loadUnaligned(fromByteOffset: 32, as: UInt64.self).littleEndian
    }
}
