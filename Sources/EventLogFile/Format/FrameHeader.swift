import EventLog
import PawtrailIO

/// The fixed 44-byte start of a frame body (commit or block), stored uncompressed so a scan can index frames
/// without decompressing them.
///
/// Layout: type u8, codec u8, index within its group commit u16 (0 for the group's first frame, and for blocks),
/// dictionary id u32, first position u64, event count u32, commit
/// count u32, first recorded-at µs i64, last recorded-at µs i64, raw (uncompressed payload) length u32.
struct FrameHeader: Hashable {
    var type: FrameType
    var codec: FrameCodec
    var dictionaryID: UInt32
    var firstPosition: UInt64
    var eventCount: UInt32
    var commitCount: UInt32
    var firstRecordedAt: Timestamp
    var lastRecordedAt: Timestamp
    var rawLength: UInt32
    /// The frame's place in the group commit that wrote it (0: the group's first). Recovery uses it to tell a
    /// torn last group (whose later frames may reach the disk before its first, after a power loss) from damage
    /// to a group that was already flushed (a later group's first frame follows it).
    var groupIndex: UInt16 = 0

    var lastPosition: UInt64 { firstPosition + UInt64(eventCount) - 1 }

    func write(to w: inout ByteWriter) {
        w.write(type.rawValue)
        w.write(codec.rawValue)
        w.write(groupIndex)
        w.write(dictionaryID)
        w.write(firstPosition)
        w.write(eventCount)
        w.write(commitCount)
        w.write(firstRecordedAt.microsecondsSinceEpoch)
        w.write(lastRecordedAt.microsecondsSinceEpoch)
        w.write(rawLength)
    }

    static func decode(_ body: UnsafeRawBufferPointer) throws(ByteReaderError) -> FrameHeader {
        var r = ByteReader(body)
        let t = try r.read(UInt8.self)
        let c = try r.read(UInt8.self)
        guard let type = FrameType(rawValue: t), type != .footer else {
            throw ByteReaderError(reason: "unknown frame type \(t)", offset: 0)
        }
        guard let codec = FrameCodec(rawValue: c) else { throw ByteReaderError(reason: "unknown codec \(c)", offset: 1) }
        let groupIndex = try r.read(UInt16.self)
        let dict = try r.read(UInt32.self)
        let first = try r.read(UInt64.self)
        let events = try r.read(UInt32.self)
        let commits = try r.read(UInt32.self)
        let firstAt = try r.read(Int64.self)
        let lastAt = try r.read(Int64.self)
        let raw = try r.read(UInt32.self)
        // Every encoded event takes at least 22 bytes (stream, version, type, 16-byte id, counts, data length),
        // so a count the payload cannot hold is damage, whatever the checksum says; nothing is ever sized from
        // an unchecked count.
        guard events > 0, commits > 0, commits <= events, first <= UInt64.max - UInt64(events),
            UInt64(events) * UInt64(CommitCodec.minimumEventBytes) <= UInt64(raw)
        else {
            throw ByteReaderError(reason: "frame counts \(events) events in \(commits) commits", offset: 12)
        }
        return FrameHeader(
            type: type, codec: codec, dictionaryID: dict, firstPosition: first, eventCount: events, commitCount: commits,
            firstRecordedAt: Timestamp(microsecondsSinceEpoch: firstAt), lastRecordedAt: Timestamp(microsecondsSinceEpoch: lastAt),
            rawLength: raw, groupIndex: groupIndex)
    }
}
