import EventLog
import Foundation
import PawtrailIO

/// Where a frame sits in a segment file.
struct FrameRef: Hashable {
    var firstPosition: UInt64
    var offset: UInt64
    var length: UInt32
    var eventCount: UInt32
    var recordedAt: Timestamp

    var lastPosition: UInt64 { firstPosition + UInt64(eventCount) - 1 }
}

/// What every segment offers readers: which positions it holds and where their frames are.
protocol SegmentFile: AnyObject {
    var name: String { get }
    var path: String { get }
    var fd: FileDescriptor { get }
    var header: SegmentHeader { get }
    var firstPosition: UInt64 { get }
    /// The number of events readable in it.
    var eventCount: UInt64 { get }
    /// The frame holding a position (which must be in this segment).
    func locate(_ position: UInt64) throws -> FrameRef
    /// The frame after a frame, `nil` at the end of the segment.
    func frame(after ref: FrameRef) throws -> FrameRef?
    /// The frame after a frame when its place is known without reading the file; `nil` otherwise.
    func indexedFrame(after ref: FrameRef) -> FrameRef?
}

extension SegmentFile {
    var lastPosition: UInt64 { firstPosition + eventCount - 1 }
    func contains(_ position: UInt64) -> Bool { eventCount > 0 && position >= firstPosition && position <= lastPosition }
}

/// A sealed segment: immutable, with its footer (sparse position/time index) and its stream and event-id indexes.
final class SealedSegment: SegmentFile {
    let name: String
    let path: String
    let fd: FileDescriptor
    let header: SegmentHeader
    let footer: SegmentFooter
    let fileSize: UInt64
    /// The stream index, once checked: loaded on first use (``LogState/streamIndex(of:)``, under the state lock), not
    /// when the segment is, since checking it reads the whole file (about 4 bytes an event), and a store's reads and
    /// appends ask only the segments that an index run names for their streams, or that no run covers.
    var checkedStreams: StreamIndexFile?
    /// The event-id index, once checked: loaded on first use (``LogState/eventIDIndex(of:)``, under the state lock),
    /// not when the segment is, since checking it reads the whole file, and only appends ask it, and only while no
    /// index run covers the segment.
    var ids: EventIDIndexFile?

    var firstPosition: UInt64 { header.firstPosition }
    var eventCount: UInt64 { footer.eventCount }

    /// Whether the upkeep compacts the segment: it holds commits, not blocks, and they are on average smaller than a
    /// block. Commits as large as a block (a bulk import's) are compressed as well as blocks would be but for the
    /// level: rewriting a segment of 10,000-event commits made it 4.5% smaller, at the cost of a third of the time
    /// the import took. `log compact` compacts those too.
    func compactionPays(blockSize: Int) -> Bool {
        header.layout == .commits && (footer.commitCount == 0 || footer.rawBytes / footer.commitCount < UInt64(blockSize))
    }

    /// The path of one of the segment's index files.
    ///
    /// - Parameter suffix: `.sidx` or `.eidx`.
    /// - Returns: The path beside the segment's file.
    func indexFilePath(_ suffix: String) -> String { String(path.dropLast(4)) + suffix }

    /// Maps the segment's `.sidx` for lookups (its header and page table checked, its pages as lookups read them);
    /// `nil` when it is missing or fails the check. Touches no state of the segment's, so the upkeep calls it outside
    /// the state lock.
    func loadStreamIndexFile() -> StreamIndexFile? {
        StreamIndexFile.open(path: indexFilePath(".sidx"), segmentFirstPosition: firstPosition, segmentEvents: eventCount)
    }

    /// Maps the segment's `.eidx` for lookups; `nil` when it is missing or fails the check.
    func loadEventIDIndexFile() -> EventIDIndexFile? {
        EventIDIndexFile.open(path: indexFilePath(".eidx"), segmentFirstPosition: firstPosition, segmentEvents: eventCount)
    }

    init(name: String, path: String, fd: FileDescriptor, header: SegmentHeader, footer: SegmentFooter, fileSize: UInt64, streams: StreamIndexFile?, ids: EventIDIndexFile?) {
        self.name = name
        self.path = path
        self.fd = fd
        self.header = header
        self.footer = footer
        self.fileSize = fileSize
        self.checkedStreams = streams
        self.ids = ids
    }

    /// In the blocks layout the footer indexes every block, so a block's place, size and events follow from
    /// the index alone, without reading (and checksumming) the file just to find where the next block starts.
    private func blockRef(_ i: Int) -> FrameRef {
        let index = footer.index
        let end = i + 1 < index.count ? index[i + 1].offset : footer.dataEnd
        let next = i + 1 < index.count ? index[i + 1].firstPosition : footer.lastPosition + 1
        return FrameRef(
            firstPosition: index[i].firstPosition, offset: index[i].offset, length: UInt32(clamping: end - index[i].offset),
            eventCount: UInt32(clamping: next - index[i].firstPosition), recordedAt: index[i].recordedAt)
    }

    /// Whether the footer index describes every block consistently (checked once, on first use).
    private lazy var indexCoversBlocks: Bool = {
        guard header.layout == .blocks, let first = footer.index.first, first.offset == UInt64(LogFormat.segmentHeaderSize),
            first.firstPosition == header.firstPosition
        else { return false }
        for (a, b) in zip(footer.index, footer.index.dropFirst()) where !(a.offset < b.offset && a.firstPosition < b.firstPosition) {
            return false
        }
        return footer.index.last.map { $0.offset < footer.dataEnd && $0.firstPosition <= footer.lastPosition } ?? false
    }()

    func locate(_ position: UInt64) throws -> FrameRef {
        let index = footer.index
        var lo = 0
        var hi = index.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if index[mid].firstPosition <= position { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { throw corrupt(UInt64(LogFormat.segmentHeaderSize), "position \(position) is not covered by the segment's index") }
        if indexCoversBlocks { return blockRef(lo - 1) }
        var scanner = FrameScanner(fd: fd, from: index[lo - 1].offset, to: footer.dataEnd)
        while true {
            let (found, stop) = try scanner.next()
            if let stop { throw stop.error(file: path) }
            guard let f = found else { throw corrupt(footer.dataEnd, "position \(position) not found before the end of the data") }
            if f.ref.lastPosition >= position { return f.ref }
        }
    }

    func indexedFrame(after ref: FrameRef) -> FrameRef? {
        guard indexCoversBlocks else { return nil }
        let next = ref.offset + UInt64(ref.length)
        var lo = 0
        var hi = footer.index.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if footer.index[mid].offset < next { lo = mid + 1 } else { hi = mid }
        }
        return lo < footer.index.count && footer.index[lo].offset == next ? blockRef(lo) : nil
    }

    func frame(after ref: FrameRef) throws -> FrameRef? {
        let next = ref.offset + UInt64(ref.length)
        guard next < footer.dataEnd else { return nil }
        if let indexed = indexedFrame(after: ref) { return indexed }
        var scanner = FrameScanner(fd: fd, from: next, to: footer.dataEnd)
        let (found, stop) = try scanner.next()
        if let stop { throw stop.error(file: path) }
        return found?.ref
    }

    private func corrupt(_ offset: UInt64, _ reason: String) -> EventStoreError {
        .corrupted(location: path, offset: offset, reason: reason)
    }

}

/// The segment being appended to: its frames and an in-memory index of its streams and event ids, rebuilt by
/// scanning it when the store is opened.
final class ActiveSegment: SegmentFile {
    struct Stream {
        var firstVersion: UInt64
        var positions: [UInt64]
        var lastVersion: UInt64 { firstVersion + UInt64(positions.count) - 1 }
    }

    let name: String
    let path: String
    let fd: FileDescriptor
    let header: SegmentHeader
    /// The end of the data this process has indexed (the durable end once refreshed).
    var endOffset: UInt64
    /// The file's size as the writer left it: past `endOffset` it holds zeros written ahead of time, so that
    /// flushing a commit into them does not also have to journal a new file size.
    var allocatedEnd: UInt64
    var frames: [FrameRef] = []
    /// The streams with events after the checkpoint (every stream without one), each whole: a stream the checkpoint
    /// also holds is copied from it when its first event after it is indexed. Ask ``stream(_:)``, which looks in both.
    private(set) var recentStreams: [StreamID: Stream] = [:]
    /// How many of ``recentStreams`` were copied from the checkpoint.
    private var recentStreamsFromCheckpoint = 0
    /// The ids of the events after the checkpoint (all of them without one).
    var eventIDs: [UUID: UInt64] = [:]
    /// The checkpoint the index started from, which keeps the ids of the events it covers.
    private(set) var checkpoint: ActiveCheckpoint?
    /// The events covered by the newest checkpoint this process took up, wrote or tried to write.
    var checkpointedEvents: UInt64 = 0
    var rawBytes: UInt64 = 0
    var eventCount: UInt64 = 0
    var lastRecordedAt: Timestamp?

    var firstPosition: UInt64 { header.firstPosition }

    init(name: String, path: String, fd: FileDescriptor, header: SegmentHeader) {
        self.name = name
        self.path = path
        self.fd = fd
        self.header = header
        self.endOffset = UInt64(LogFormat.segmentHeaderSize)
        self.allocatedEnd = UInt64(LogFormat.segmentHeaderSize)
    }

    func locate(_ position: UInt64) throws -> FrameRef {
        var lo = 0
        var hi = frames.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frames[mid].firstPosition <= position { lo = mid + 1 } else { hi = mid }
        }
        precondition(lo > 0 && frames[lo - 1].lastPosition >= position, "position \(position) is not in the active segment")
        return frames[lo - 1]
    }

    func indexedFrame(after ref: FrameRef) -> FrameRef? { try? frame(after: ref) }

    func frame(after ref: FrameRef) throws -> FrameRef? {
        var lo = 0
        var hi = frames.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frames[mid].firstPosition <= ref.firstPosition { lo = mid + 1 } else { hi = mid }
        }
        return lo < frames.count ? frames[lo] : nil
    }

    /// Starts the index from a checkpoint, instead of from the frames it covers.
    ///
    /// - Parameter checkpoint: A checkpoint of this segment's file; the index must hold nothing yet.
    func adopt(_ checkpoint: ActiveCheckpoint) {
        precondition(frames.isEmpty, "a checkpoint is taken up only by an empty index")
        let c = checkpoint.content
        self.checkpoint = checkpoint
        frames = c.frames
        rawBytes = c.rawBytes
        eventCount = c.eventCount
        lastRecordedAt = c.lastRecordedAt
        endOffset = c.coveredEnd
        checkpointedEvents = c.eventCount
    }

    /// The stream last decoded out of the checkpoint by a lookup (`nil` for one it does not hold), kept so that
    /// paging through a stream, or asking for it again, does not decode its whole position list at every call. Like
    /// the rest of the index, used under the store's state lock.
    private var checkpointLookup: (id: StreamID, stream: Stream?)?
    /// How many lookups decoded a stream out of the checkpoint (for tests).
    private(set) var checkpointStreamDecodes = 0

    /// A stream's first version and positions in the segment, `nil` when it has no events here.
    func stream(_ id: StreamID) -> Stream? {
        if let s = recentStreams[id] { return s }
        return checkpointStream(id)
    }

    /// A stream as the checkpoint holds it (``checkpointLookup``).
    private func checkpointStream(_ id: StreamID) -> Stream? {
        guard let checkpoint else { return nil }
        if let l = checkpointLookup, l.id == id { return l.stream }
        checkpointStreamDecodes += 1
        let s = checkpoint.stream(id)
        checkpointLookup = (id, s)
        return s
    }

    /// A stream's last version in the segment, `nil` when it has no events here: a stream only the checkpoint
    /// holds is not decoded for it (every append asks it of the streams it writes to).
    func lastVersion(of id: StreamID) -> UInt64? {
        if let s = recentStreams[id] { return s.lastVersion }
        if let l = checkpointLookup, l.id == id { return l.stream?.lastVersion }
        return checkpoint?.lastVersion(of: id)
    }

    /// The number of streams with events in the segment.
    var streamCount: Int { recentStreams.count + (checkpoint?.streamCount ?? 0) - recentStreamsFromCheckpoint }

    /// Every stream with events in the segment, sorted by id.
    func allStreams() -> [(id: StreamID, stream: Stream)] {
        var out: [(id: StreamID, stream: Stream)] = []
        out.reserveCapacity(streamCount)
        // Those copied out are taken whole from memory, not decoded from the checkpoint again.
        checkpoint?.forEachStream(where: { recentStreams[$0] == nil }) { id, s in out.append((id, s)) }
        for (id, s) in recentStreams { out.append((id, s)) }
        out.sort { $0.id < $1.id }
        return out
    }

    /// The hash (``Hash128``) of every stream id with events in the segment, unsorted.
    func streamHashes() -> [Hash128] {
        var out = recentStreams.keys.map { Hash128($0.rawValue) }
        if let checkpoint {
            // A stream copied out of the checkpoint is in both: counted once.
            let copied = Set(recentStreams.keys.filter { checkpoint.lastVersion(of: $0) != nil }.map { Hash128($0.rawValue) })
            out += checkpoint.streamHashes().filter { !copied.contains($0) }
        }
        return out
    }

    /// Adds an event's position to its stream.
    private func append(_ position: UInt64, version: UInt64, to id: StreamID) {
        if let i = recentStreams.index(forKey: id) {
            recentStreams.values[i].positions.append(position)
        } else if var s = checkpointStream(id) {
            checkpointLookup = nil
            s.positions.append(position)
            recentStreams[id] = s
            recentStreamsFromCheckpoint += 1
        } else {
            recentStreams[id] = Stream(firstVersion: version, positions: [position])
        }
    }

    /// The number of event ids indexed.
    var eventIDCount: Int { eventIDs.count + (checkpoint?.idCount ?? 0) }

    /// Whether any of `ids` may be an event of this segment: one it indexed itself, or one whose key its checkpoint
    /// holds.
    ///
    /// - Parameters:
    ///   - ids: The ids.
    ///   - keys: Their keys (``EventIDIndexFile/key(_:)``), in ascending order.
    func mayHoldAny(_ ids: [UUID], sortedKeys keys: [UInt64]) -> Bool {
        if !eventIDs.isEmpty, ids.contains(where: { eventIDs[$0] != nil }) { return true }
        return checkpoint?.containsAny(sortedKeys: keys) ?? false
    }

    /// The positions that may hold the event with an id: exact in the ids after the checkpoint, candidates sharing
    /// the id's key in the checkpoint's (the caller reads them to tell).
    func candidatePositions(of id: UUID) -> [UInt64] {
        if let p = eventIDs[id] { return [p] }
        return checkpoint?.positions(forKey: EventIDIndexFile.key(id)) ?? []
    }

    /// Every event's id key and position, for the sealed segment's id index.
    func idKeys() -> [(key: UInt64, position: UInt64)] {
        var out: [(key: UInt64, position: UInt64)] = []
        out.reserveCapacity(eventIDCount)
        if let checkpoint { for i in 0..<checkpoint.idCount { out.append(checkpoint.idEntry(at: i)) } }
        for (id, p) in eventIDs { out.append((EventIDIndexFile.key(id), p)) }
        return out
    }

    /// Adds a just-written frame's events to the in-memory index, from the events themselves.
    func index(frame ref: FrameRef, header: FrameHeader, events: ArraySlice<AppendPlanner.PlannedEvent>) {
        var position = ref.firstPosition
        eventIDs.reserveCapacity(eventIDs.count + events.count)
        // Read in place: a bulk append's events would otherwise be copied one by one.
        events.withUnsafeBufferPointer { events in
            for i in events.indices {
                append(position, version: events[i].version, to: events[i].stream)
                eventIDs[events[i].event.id] = position
                position += 1
            }
        }
        record(ref, header)
    }

    /// The frame-level bookkeeping of an indexed frame.
    private func record(_ ref: FrameRef, _ header: FrameHeader) {
        frames.append(ref)
        rawBytes += UInt64(header.rawLength)
        eventCount += UInt64(header.eventCount)
        lastRecordedAt = header.lastRecordedAt
        endOffset = ref.offset + UInt64(ref.length)
    }

    /// Adds a frame's events to the in-memory index.
    func index(frame ref: FrameRef, payload: [UInt8], header: FrameHeader) throws {
        // Decode the whole frame before touching the index, so a frame that fails half-way leaves no trace.
        var decoded: [(StreamID, UInt64, UUID, UInt64)] = []
        decoded.reserveCapacity(Int(header.eventCount))
        try payload.withUnsafeBytes { raw in
            try CommitCodec.walkEvents(raw, header: header) { e in
                decoded.append((e.streamID(), e.version, e.id, e.position))
                return true
            }
        }
        for (stream, version, id, position) in decoded {
            append(position, version: version, to: stream)
            eventIDs[id] = position
        }
        record(ref, header)
    }
}
