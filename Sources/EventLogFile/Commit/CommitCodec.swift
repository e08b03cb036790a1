import EventLog
import Foundation
import PawtrailIO

/// A view of one encoded event inside a decompressed payload; its buffers are valid only inside the visit.
struct EventView {
    var position: UInt64
    var recordedAt: Timestamp
    var stream: UnsafeRawBufferPointer
    var version: UInt64
    var type: UnsafeRawBufferPointer
    var id: UUID
    var metadataCount: Int
    var metadata: UnsafeRawBufferPointer
    var data: UnsafeRawBufferPointer
    /// The whole encoded event (for dictionary samples and raw-size accounting).
    var encoded: UnsafeRawBufferPointer

    func streamID() -> StreamID { StreamID(unchecked: String(decoding: stream, as: UTF8.self)) }
    func typeName() -> String { String(decoding: type, as: UTF8.self) }

    func streamEquals(_ other: StreamID) -> Bool {
        var s = other.rawValue
        return s.withUTF8 { $0.count == stream.count && memcmp($0.baseAddress!, stream.baseAddress!, stream.count) == 0 }
    }

    func decodeMetadata() -> EventMetadata {
        metadataCount == 0 ? EventMetadata() : EventMetadata(encoded: [UInt8](metadata), count: metadataCount)
    }

    /// The event as a value of its own.
    ///
    /// - Parameter type: Its type name when the caller has it already (a filter's shared string).
    func materialize(type: String? = nil) throws(ByteReaderError) -> RecordedEvent {
        RecordedEvent(
            position: position, stream: streamID(), version: version, type: type ?? typeName(), id: id, recordedAt: recordedAt,
            metadata: decodeMetadata(), data: [UInt8](data))
    }
}

/// One commit inside a payload: its time, its events' count and the bytes of its events.
struct CommitView {
    var recordedAt: Timestamp
    var eventCount: Int
    var events: UnsafeRawBufferPointer
}

/// The encoding of commits and events inside a frame payload (before compression).
///
/// payload := commit*; commit := recorded-at delta (zigzag varint, µs after the frame's first recorded-at),
/// event count (varint), event*; event := stream (varint length + UTF-8), version (varint), type (varint length
/// + ASCII), event id (16 bytes), metadata pair count (varint), (key, value)* (each varint length + UTF-8),
/// data (varint length + bytes). Positions are implicit: the frame's first position, counting up.
enum CommitCodec {
    /// The smallest encoded event: 1-byte stream, version, 1-byte type, 16-byte id, metadata count, data length.
    static let minimumEventBytes = 22

    static func encodeCommitHeader(recordedAtDelta: Int64, eventCount: Int, into w: inout ByteWriter) {
        w.writeSignedVarint(recordedAtDelta)
        w.writeVarint(UInt64(eventCount))
    }

    /// One commit of planned events, encoded: a header (recorded-at delta 0, the count) and the events.
    ///
    /// The events are read in place, and the buffer is sized from the metadata's encoded length rather than by
    /// walking its pairs: a bulk commit holds 10,000 events, each of several references to retain on a copy.
    static func encodeCommit(_ events: [AppendPlanner.PlannedEvent]) -> [UInt8] {
        events.withUnsafeBufferPointer { events in
            var w = ByteWriter(capacity: events.indices.reduce(64) { $0 + encodedSizeHint(events[$1].event) })
            encodeCommitHeader(recordedAtDelta: 0, eventCount: events.count, into: &w)
            for i in events.indices { encodeEvent(stream: events[i].stream, version: events[i].version, event: events[i].event, into: &w) }
            return w.bytes
        }
    }

    /// One commit of an append's entries at the given versions (one per entry), encoded as
    /// ``encodeCommit(_:)`` encodes the planned events, without building them.
    static func encodeCommit(_ entries: UnsafeBufferPointer<AppendRequest.Entry>, versions: [UInt64]) -> [UInt8] {
        precondition(entries.count == versions.count, "one version per entry")
        var w = ByteWriter(capacity: entries.indices.reduce(64) { $0 + encodedSizeHint(entries[$1].event) })
        encodeCommitHeader(recordedAtDelta: 0, eventCount: entries.count, into: &w)
        for i in entries.indices { encodeEvent(stream: entries[i].stream, version: versions[i], event: entries[i].event, into: &w) }
        return w.bytes
    }

    /// About what an event takes encoded (its stream and type are usually within the slack).
    private static func encodedSizeHint(_ event: ProposedEvent) -> Int {
        event.data.count + event.metadata.encoded.count + 64
    }

    static func encodeEvent(stream: StreamID, version: UInt64, event: ProposedEvent, into w: inout ByteWriter) {
        w.writeLengthPrefixed(stream.rawValue)
        w.writeVarint(version)
        w.writeLengthPrefixed(event.type)
        withUnsafeBytes(of: event.id.uuid) { w.write(bytes: $0) }
        // The metadata's canonical encoding is the log's: count, then the pairs' bytes as they are.
        w.writeVarint(UInt64(event.metadata.count))
        w.write(bytes: event.metadata.encoded)
        w.writeLengthPrefixed(event.data)
    }

    /// Visits the commits of a payload.
    static func walkCommits(
        _ payload: UnsafeRawBufferPointer, header: FrameHeader, _ body: (CommitView) throws -> Void
    ) throws {
        var r = ByteReader(payload)
        var events = 0
        for _ in 0..<header.commitCount {
            let delta = try r.readSignedVarint()
            guard let count = Int(exactly: try r.readVarint()), count <= Int(header.eventCount) else {
                throw ByteReaderError(reason: "commit event count exceeds the frame's", offset: r.offset)
            }
            let start = r.offset
            for _ in 0..<count { try skipEvent(&r) }
            events += count
            try body(
                CommitView(
                    recordedAt: Timestamp(microsecondsSinceEpoch: header.firstRecordedAt.microsecondsSinceEpoch &+ delta),
                    eventCount: count, events: UnsafeRawBufferPointer(rebasing: payload[start..<r.offset])))
        }
        guard r.isAtEnd, events == Int(header.eventCount) else {
            throw ByteReaderError(reason: "payload holds \(events) events in \(r.offset) of \(payload.count) bytes; the frame header says \(header.eventCount)", offset: r.offset)
        }
    }

    /// Visits the events of a payload in position order; return `false` from `body` to stop early.
    static func walkEvents(
        _ payload: UnsafeRawBufferPointer, header: FrameHeader, _ body: (EventView) throws -> Bool
    ) throws {
        var r = ByteReader(payload)
        var position = header.firstPosition
        var seen: UInt32 = 0
        for _ in 0..<header.commitCount {
            let delta = try r.readSignedVarint()
            let at = Timestamp(microsecondsSinceEpoch: header.firstRecordedAt.microsecondsSinceEpoch &+ delta)
            let count = try r.readVarint()
            guard count <= UInt64(header.eventCount) else {
                throw ByteReaderError(reason: "commit event count exceeds the frame's", offset: r.offset)
            }
            for _ in 0..<count {
                let view = try parseEvent(payload, &r, position: position, recordedAt: at)
                if try !body(view) { return }
                guard seen < header.eventCount else {
                    throw ByteReaderError(reason: "payload holds more events than the frame header says", offset: r.offset)
                }
                position += 1
                seen += 1
            }
        }
        guard seen == header.eventCount, r.isAtEnd else {
            throw ByteReaderError(reason: "payload holds \(seen) events; the frame header says \(header.eventCount)", offset: r.offset)
        }
    }

    /// Parses the event that starts at the reader's offset.
    static func parseEvent(
        _ payload: UnsafeRawBufferPointer, _ r: inout ByteReader, position: UInt64, recordedAt: Timestamp
    ) throws(ByteReaderError) -> EventView {
        let start = r.offset
        let stream = try r.readView(try r.readLength())
        let version = try r.readVarint()
        let type = try r.readView(try r.readLength())
        let idBytes = try r.readView(16)
        let id = UUID(uuid: idBytes.loadUnaligned(as: uuid_t.self))
        guard let metaCount = Int(exactly: try r.readVarint()), metaCount <= r.remaining else {
            throw ByteReaderError(reason: "metadata count exceeds the payload", offset: r.offset)
        }
        let metaStart = r.offset
        for _ in 0..<metaCount {
            _ = try r.readView(try r.readLength())
            _ = try r.readView(try r.readLength())
        }
        let metadata = UnsafeRawBufferPointer(rebasing: payload[metaStart..<r.offset])
        let data = try r.readView(try r.readLength())
        return EventView(
            position: position, recordedAt: recordedAt, stream: stream, version: version, type: type, id: id,
            metadataCount: metaCount, metadata: metadata, data: data,
            encoded: UnsafeRawBufferPointer(rebasing: payload[start..<r.offset]))
    }

    /// Moves the reader past one event.
    static func skipEvent(_ r: inout ByteReader) throws(ByteReaderError) {
        _ = try r.readView(try r.readLength())
        _ = try r.readVarint()
        _ = try r.readView(try r.readLength())
        _ = try r.readView(16)
        let m = try r.readVarint()
        for _ in 0..<m {
            _ = try r.readView(try r.readLength())
            _ = try r.readView(try r.readLength())
        }
        _ = try r.readView(try r.readLength())
    }
}
