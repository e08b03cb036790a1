import EventLog
import Foundation
import PawtrailIO

/// A checkpoint encoded from the active segment's in-memory index, which holds exactly what a scan of the segment's
/// frames up to its end would find: the checkpoint it was opened from, and the frames, streams and ids indexed after
/// it (from the events this process wrote, or from the frames it read when other processes wrote them). The bytes
/// are those ``ActiveCheckpoint/build(segment:fd:firstPosition:upTo:previous:decompressor:dictionaries:)`` gives for
/// the same end (a test compares them, and `log verify` rebuilds every checkpoint by a scan and compares it), at the
/// cost of a merge instead of decompressing and decoding the frames again and sorting every stream and id: the
/// streams and ids the old checkpoint holds are copied as they are encoded, in the order they already have.
extension ActiveCheckpoint {
    /// What a checkpoint of the index needs, taken under the store's state lock: values, so that appends may go on
    /// while it is encoded.
    struct IndexView {
        var firstPosition: UInt64
        var coveredEnd: UInt64
        var frames: [FrameRef]
        var rawBytes: UInt64
        var lastRecordedAt: Timestamp?
        var eventCount: UInt64
        var base: ActiveCheckpoint?
        var recentStreams: [StreamID: ActiveSegment.Stream]
        var recentIDs: [UUID: UInt64]

        init(_ a: ActiveSegment) {
            firstPosition = a.firstPosition
            coveredEnd = a.endOffset
            frames = a.frames
            rawBytes = a.rawBytes
            lastRecordedAt = a.lastRecordedAt
            eventCount = a.eventCount
            base = a.checkpoint
            recentStreams = a.recentStreams
            recentIDs = a.eventIDs
        }
    }

    /// The bytes of a checkpoint covering everything an index holds.
    ///
    /// - Parameters:
    ///   - index: The index, as taken under the state lock.
    ///   - file: The segment file's identity.
    /// - Returns: The bytes, or `nil` when the index holds no frame or the checkpoint would not fit its format.
    static func encode(index: IndexView, file: FileID) -> [UInt8]? {
        guard !index.frames.isEmpty, index.eventCount > 0 else { return nil }
        let positionWidth = positionWidth(eventCount: Int(index.eventCount))
        let entrySize = keyBytes + positionWidth
        var body = ByteWriter(capacity: index.frames.count * 8 + Int(index.eventCount) * (entrySize + 4))

        var end = UInt64(LogFormat.segmentHeaderSize)
        var at: Int64 = 0
        for f in index.frames {
            body.writeVarint(f.offset - end)
            body.writeVarint(UInt64(f.length))
            body.writeVarint(UInt64(f.eventCount))
            body.writeSignedVarint(f.recordedAt.microsecondsSinceEpoch &- at)
            at = f.recordedAt.microsecondsSinceEpoch
            end = f.offset + UInt64(f.length)
        }

        // Streams in the order of their ids' bytes: the base's entries, untouched since, copied; each stream with
        // events after the base encoded whole (it holds the base's positions too).
        let recent = sortedByID(index.recentStreams)
        var streamCount = 0
        func writeRecent(_ id: StreamID, _ s: ActiveSegment.Stream) {
            body.writeLengthPrefixed(id.rawValue)
            body.writeVarint(s.firstVersion)
            body.writeVarint(UInt64(s.positions.count))
            var previous = index.firstPosition
            for p in s.positions {
                body.writeVarint(p - previous)
                previous = p
            }
            streamCount += 1
        }
        var r = 0
        if let base = index.base {
            for i in 0..<base.streamCount {
                let name = base.streamName(at: i)
                var replaced = false
                while r < recent.count {
                    var id = recent[r].key.rawValue
                    let order = id.withUTF8 { compare(UnsafeRawBufferPointer($0), name) }
                    if order > 0 { break }
                    writeRecent(recent[r].key, recent[r].value)
                    r += 1
                    if order == 0 {
                        replaced = true
                        break
                    }
                }
                if !replaced {
                    body.bytes.append(contentsOf: base.streamEntryBytes(at: i))
                    streamCount += 1
                }
            }
        }
        while r < recent.count {
            writeRecent(recent[r].key, recent[r].value)
            r += 1
        }

        let idsOffset = headerSize + body.count
        guard idsOffset + Int(index.eventCount) * entrySize <= Int(UInt32.max) else { return nil }
        // Ids by their kept key, then position: the base's in that order already, the recent ones sorted and merged in.
        var fresh = index.recentIDs.map { (prefix: prefix(EventIDIndexFile.key($0.key)), position: $0.value) }
        fresh.sort { ($0.prefix, $0.position) < ($1.prefix, $1.position) }
        func writeID(_ p: UInt64, _ position: UInt64) {
            for k in 0..<keyBytes { body.bytes.append(UInt8(truncatingIfNeeded: p >> UInt64(8 * k))) }
            let relative = position - index.firstPosition
            for k in 0..<positionWidth { body.bytes.append(UInt8(truncatingIfNeeded: relative >> UInt64(8 * k))) }
        }
        var f = 0
        if let base = index.base {
            for i in 0..<base.idCount {
                let (key, position) = base.idEntry(at: i)
                let p = prefix(key)
                while f < fresh.count, (fresh[f].prefix, fresh[f].position) < (p, position) {
                    writeID(fresh[f].prefix, fresh[f].position)
                    f += 1
                }
                if base.idPositionWidth == positionWidth {
                    body.bytes.append(contentsOf: base.idEntryBytes(at: i))
                } else {
                    writeID(p, position)
                }
            }
        }
        while f < fresh.count {
            writeID(fresh[f].prefix, fresh[f].position)
            f += 1
        }
        guard body.count - (idsOffset - headerSize) == Int(index.eventCount) * entrySize else { return nil }

        var w = ByteWriter(capacity: headerSize + body.count)
        w.write(LogFormat.checkpointMagic)
        w.write(version)
        w.write(UInt16(0))
        w.write(index.firstPosition)
        w.write(file.device)
        w.write(file.inode)
        w.write(index.coveredEnd)
        w.write(index.eventCount)
        w.write(index.rawBytes)
        w.write(index.lastRecordedAt?.microsecondsSinceEpoch ?? 0)
        w.write(UInt32(index.frames.count))
        w.write(UInt32(streamCount))
        w.write(UInt32(idsOffset))
        let crc = w.bytes.withUnsafeBytes { header in body.bytes.withUnsafeBytes { checksum(header: header, body: $0) } }
        w.write(crc)
        w.write(bytes: body.bytes)
        return w.bytes
    }

    /// Streams in the order of their ids' bytes (``StreamID``'s `<`): sorted by their first sixteen bytes as two
    /// big-endian words, the whole ids compared only on a tie. Zeros pad a shorter id, which sorts it first as a
    /// prefix does, and an id's own zero byte only makes a tie.
    static func sortedByID(_ streams: [StreamID: ActiveSegment.Stream]) -> [(key: StreamID, value: ActiveSegment.Stream)] {
        let items = Array(streams)
        var keys: [(high: UInt64, low: UInt64, item: Int)] = []
        keys.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            var id = item.key.rawValue
            let words = id.withUTF8 { utf8 -> (UInt64, UInt64) in
                var w: (UInt64, UInt64) = (0, 0)
                for k in 0..<min(16, utf8.count) {
                    if k < 8 { w.0 |= UInt64(utf8[k]) << UInt64(56 - 8 * k) } else { w.1 |= UInt64(utf8[k]) << UInt64(120 - 8 * k) }
                }
                return w
            }
            keys.append((words.0, words.1, i))
        }
        keys.sort { l, r in
            if l.high != r.high { return l.high < r.high }
            if l.low != r.low { return l.low < r.low }
            return items[l.item].key < items[r.item].key
        }
        return keys.map { items[$0.item] }
    }
}
