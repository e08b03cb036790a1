import EventLog
import Foundation
import PawtrailIO

/// Writing: segments created, rolled and sealed, room made, commits published (the caller holds the writer lock
/// and has refreshed as a writer).
extension LogState {
    // MARK: - Writing (the caller holds the writer lock and has refreshed as a writer)

    /// Creates the next segment file and makes it the active one.
    func createActiveSegment() throws {
        let first = nextPosition
        let name = LogFormat.segmentName(firstPosition: first)
        let path = segmentPath(name)
        let header = SegmentHeader(layout: .commits, firstPosition: first, createdAt: .now())
        let fd = try FileDescriptor.open(path, .readWriteCreate)
        try fd.truncate(to: 0)
        try fd.write(header.encoded(), at: 0)
        if options.durability == .sync {
            try fd.synchronizeData()
            try FileSystem.synchronizeDirectory(segmentsDirectory)
        }
        active = ActiveSegment(name: name, path: path, fd: fd, header: header)
        activeDamage = nil
        try writeHead()
    }

    /// Appends encoded commit frames to the active segment, flushes them, and indexes them.
    /// Makes room for a group of commit frames: rolls to a new segment when the active one would pass its
    /// size or event limit. Returns the segment and offset to write at; the caller writes and flushes outside
    /// the state lock (holding the writer lock), then calls ``publish(_:at:frames:events:)``.
    func prepareAppend(bytes: Int, events: Int) throws -> (segment: ActiveSegment, offset: UInt64) {
        if let damage = activeDamage { throw damage }
        if active == nil { try createActiveSegment() }
        if wouldRoll(bytes: bytes, events: events) {
            try sealActive()
            try createActiveSegment()
        }
        let a = active!
        try preallocate(a, for: bytes)
        return (a, a.endOffset)
    }

    /// Whether a group of this size would roll to a new segment (see ``prepareAppend(bytes:events:)``).
    func wouldRoll(bytes: Int, events: Int) -> Bool {
        guard let a = active, a.eventCount > 0 else { return false }
        return a.endOffset + UInt64(bytes) > UInt64(options.segmentSize) || a.eventCount + UInt64(events) > UInt64(options.maxSegmentEvents)
    }

    /// How far ahead of the data the writer writes zeros at most, and the largest group it does it for (a large group
    /// is dominated by writing its data, not by the file-size journal entry, and would be written twice).
    static let preallocationChunk = 1 << 20
    static let preallocationLimit = 64 << 10

    /// Writes and flushes zeros ahead of the data when a small group would extend the file, so the group's
    /// own flush only writes data.
    func preallocate(_ a: ActiveSegment, for bytes: Int) throws {
        guard options.durability == .sync, bytes < Self.preallocationLimit,
            a.endOffset + UInt64(bytes) > a.allocatedEnd
        else { return }
        let start = max(a.allocatedEnd, a.endOffset)
        // Grows with the segment (64 KiB ahead at first, up to 1 MiB), so a small store stays small.
        let ahead = min(UInt64(Self.preallocationChunk), max(64 << 10, a.endOffset))
        let end = a.endOffset + UInt64(bytes) + ahead
        let zeros = [UInt8](repeating: 0, count: Int(end - start))
        try a.fd.write(zeros, at: start)
        try a.fd.synchronizeData()
        a.allocatedEnd = end
    }

    /// Publishes frames that were written and flushed at `start`: moves the head past them (from then on other
    /// processes read them), calls `acknowledge`, then adds them to the in-memory index. The caller holds the
    /// state lock throughout, so this process's readers, those `acknowledge` resumes included, see them only once
    /// they are indexed; acknowledging before the indexing lets writers prepare their next append meanwhile. With
    /// `names` false (deferred appends, not yet flushed) the head stays: only this process reads them until a flush
    /// writes it.
    func publish(
        _ a: ActiveSegment, at start: UInt64, frames: [(offsetInBatch: Int, length: Int, header: FrameHeader, payload: [UInt8])],
        events: [AppendPlanner.PlannedEvent], writeHead names: Bool = true, acknowledge: () -> Void
    ) throws {
        guard let last = frames.last else { return }
        let head = HeadFile(
            activeFirstPosition: a.firstPosition, endOffset: start + UInt64(last.offsetInBatch + last.length),
            nextPosition: last.header.firstPosition + UInt64(last.header.eventCount),
            lastRecordedAt: max(lastRecordedAt, last.header.lastRecordedAt))
        if names { try writeHead(head) }
        acknowledge()
        var next = 0
        for f in frames {
            let ref = FrameRef(firstPosition: f.header.firstPosition, offset: start + UInt64(f.offsetInBatch), length: UInt32(f.length), eventCount: f.header.eventCount, recordedAt: f.header.firstRecordedAt)
            a.index(frame: ref, header: f.header, events: events[next..<(next + Int(f.header.eventCount))])
            next += Int(f.header.eventCount)
            cache.insert(FrameCache.Key(segment: a.firstPosition, layout: .commits, offset: ref.offset), header: f.header, payload: f.payload)
        }
        lastRecordedAt = max(lastRecordedAt, a.lastRecordedAt ?? lastRecordedAt)
        lastCommitEnd = a.endOffset
        assert(currentHead() == head, "the head written ahead must be the one the index arrives at")
    }

    /// Seals the active segment: footer with the sparse index and whole-segment checksum, then its index files.
    func sealActive() throws {
        guard let a = active, a.eventCount > 0 else { return }
        if let checkpoint = a.checkpoint { try checkFrames(of: a, upTo: checkpoint.content.coveredEnd) }
        let wholeSegment = try checksum(of: a.fd, upTo: a.endOffset, file: a.path)
        var index: [SegmentFooter.IndexEntry] = []
        var lastIndexed: UInt64 = 0
        for f in a.frames where index.isEmpty || f.offset - lastIndexed >= UInt64(LogFormat.sparseIndexInterval) {
            index.append(.init(firstPosition: f.firstPosition, offset: f.offset, recordedAt: f.recordedAt))
            lastIndexed = f.offset
        }
        let footer = SegmentFooter(
            layout: .commits, eventCount: a.eventCount, commitCount: UInt64(a.frames.count), lastPosition: a.lastPosition,
            firstRecordedAt: a.frames[0].recordedAt, lastRecordedAt: a.lastRecordedAt ?? a.frames[0].recordedAt,
            dataEnd: a.endOffset, rawBytes: a.rawBytes, checksum: wholeSegment, index: index)
        let bytes = footer.encodedWithTrailer()
        do {
            // Footer first, flushed, then the trailer that points at it: a power loss can never leave a trailer
            // whose footer did not reach the disk.
            let footerLength = bytes.count - LogFormat.trailerSize
            try a.fd.write(Array(bytes[..<footerLength]), at: a.endOffset)
            if options.durability == .sync { try a.fd.synchronizeData() }
            try a.fd.write(Array(bytes[footerLength...]), at: a.endOffset + UInt64(footerLength))
            // The trailer must end the file: cut the preallocated zeros after it.
            try a.fd.truncate(to: a.endOffset + UInt64(bytes.count))
            if options.durability == .sync { try a.fd.synchronizeData() }
        } catch {
            // Leave the segment active and whole: cut off whatever part of the footer reached the file.
            try? a.fd.truncate(to: a.endOffset)
            try? a.fd.synchronizeData()
            throw error
        }
        let base = String(a.path.dropLast(4))
        // The segment is sealed once its footer is durable; its index files are derived data, rebuilt from it
        // on load if writing them fails here.
        try? FileSystem.writeAtomically(
            StreamIndexFile.encode(segmentFirstPosition: a.firstPosition, streams: a.allStreams().map { ($0.id, $0.stream.firstVersion, $0.stream.positions) }),
            to: base + ".sidx", sync: false)
        try? FileSystem.writeAtomically(
            EventIDIndexFile.encode(segmentFirstPosition: a.firstPosition, ids: a.idKeys()),
            to: base + ".eidx", sync: false)
        // The checkpoint is of no more use once the segment is sealed (and is never taken for a sealed one's).
        try? FileSystem.removeFile(ActiveCheckpoint.path(ofSegment: a.path))
        let size = a.endOffset + UInt64(bytes.count)
        guard let trailer = try SegmentFooter.readTrailer(fd: a.fd, fileSize: size) else {
            throw EventStoreError.storeFailure("the footer just written to \(a.path) does not read back")
        }
        let segment = try loadSealed(name: a.name, path: a.path, fd: a.fd, size: size, trailer: trailer)
        sealed.append(segment)
        active = nil
    }

    /// Reads the frames a checkpoint covers, which this process took on trust (only the last was read back when
    /// the checkpoint was taken up), before a footer's whole-segment checksum vouches for them: damage there is
    /// acknowledged data damaged, so it stops appends, as an open that scans the segment finds it.
    func checkFrames(of a: ActiveSegment, upTo end: UInt64) throws {
        var scanner = FrameScanner(fd: a.fd, from: UInt64(LogFormat.segmentHeaderSize), to: end)
        var i = 0
        while true {
            let (found, stop) = try scanner.next()
            if let stop {
                activeDamage = stop.error(file: a.path)
                throw stop.error(file: a.path)
            }
            guard let f = found else { return }
            guard i < a.frames.count, f.ref == a.frames[i] else {
                let damage = EventStoreError.corrupted(location: a.path, offset: f.offset, reason: "the frame is not the one the checkpoint lists there")
                activeDamage = damage
                throw damage
            }
            i += 1
        }
    }

    /// Replaces a sealed segment's view after it was rewritten into blocks, keeping its index files' mappings (the
    /// rewrite keeps every event at its position), so that the nice-19 upkeep thread that calls this holds the state
    /// lock only to read a header and a footer.
    func reloadSealed(firstPosition: UInt64) throws {
        guard let i = sealed.firstIndex(where: { $0.firstPosition == firstPosition }) else { return }
        let old = sealed[i]
        let fd = try openSegment(old.path)
        let size = try fd.size()
        guard let trailer = try SegmentFooter.readTrailer(fd: fd, fileSize: size) else { return }
        sealed[i] = try loadSealed(name: old.name, path: old.path, fd: fd, size: size, trailer: trailer, reusingIndexesOf: old)
    }

    /// Whether the active segment has gained enough events since its last checkpoint for another.
    var checkpointDue: Bool {
        guard options.checkpointInterval > 0, activeDamage == nil, let a = active else { return false }
        return a.eventCount >= a.checkpointedEvents + UInt64(options.checkpointInterval)
    }

    /// Whether the store holds enough uncompressed data and no dictionary yet, so one should be trained from its
    /// newest events. Notes the attempt: after one that fails, the next waits until the store has doubled.
    func dictionaryTrainingDue() throws -> Bool {
        guard !dictionaryExists else { return false }
        let raw = rawBytes
        guard raw >= UInt64(options.dictionaryTrainingThreshold), raw >= dictionaryAttemptRawBytes * 2,
            let a = active, a.eventCount > 0
        else { return false }
        if try !dictionaries.idsOnDisk().isEmpty {
            dictionaryExists = true
            return false
        }
        dictionaryAttemptRawBytes = raw
        return true
    }
}
