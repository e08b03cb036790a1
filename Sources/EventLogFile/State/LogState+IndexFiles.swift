import EventLog
import PawtrailIO

extension LogState {
    /// Whether sealed segments lack index files that the upkeep should try to save again: some do, and no attempt
    /// failed since the last roll (a failure that lasts, such as a read-only directory, is retried once a roll).
    var indexFilesSaveDue: Bool {
        !unsavedIndexFiles.isEmpty && indexFilesSaveFailedAt != sealed.count
    }

    /// Writes the index files of the sealed segments that serve their indexes from memory because saving them
    /// failed when they were sealed or loaded (descriptors exhausted, a full disk), so that the next open, `log
    /// verify` and other processes find them. Best effort, like every write of derived data.
    ///
    /// - Returns: Whether every such segment now has its files.
    @discardableResult
    func saveUnsavedIndexFiles() -> Bool {
        for segment in sealed where unsavedIndexFiles.contains(segment.firstPosition) {
            // A segment whose indexes were rebuilt holds both (see `rebuildIndexes`).
            func save(_ index: MappedFile?, _ suffix: String) -> Bool {
                index.map { (try? FileSystem.writeAtomically([UInt8]($0.bytes), to: segment.indexFilePath(suffix), sync: false)) != nil } ?? true
            }
            guard save(segment.checkedStreams?.mapped, ".sidx"), save(segment.ids?.mapped, ".eidx")
            else {
                indexFilesSaveFailedAt = sealed.count
                return false
            }
            unsavedIndexFiles.remove(segment.firstPosition)
        }
        return true
    }

    func loadSealed(
        name: String, path: String, fd: FileDescriptor, size: UInt64, trailer: (footerOffset: UInt64, footerLength: Int),
        reusingIndexesOf previous: SealedSegment? = nil
    ) throws -> SealedSegment {
        let header = try SegmentHeader.decode(try fd.read(at: 0, count: LogFormat.segmentHeaderSize), file: path)
        guard LogFormat.firstPosition(ofSegmentName: name) == header.firstPosition else {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "the file's name does not match the first position in its header (\(header.firstPosition))")
        }
        let footer = try SegmentFooter.read(fd: fd, file: path, footerOffset: trailer.footerOffset, footerLength: trailer.footerLength)
        if let previous, previous.firstPosition == header.firstPosition, previous.footer.eventCount == footer.eventCount {
            // The same events rewritten (compaction): the index files were not touched, and are already checked.
            return SealedSegment(name: name, path: path, fd: fd, header: header, footer: footer, fileSize: size, streams: previous.checkedStreams, ids: previous.ids)
        }
        let base = String(path.dropLast(4))
        // Both indexes wait for their first use (see `streamIndex(of:)` and `eventIDIndex(of:)`): an open reads their
        // headers only. Whatever the headers show (a file missing, cut short, of an older version or of another
        // segment) is rebuilt here: a seal cut short between the index files leaves the second missing, and left so,
        // nothing would write an `.eidx` for a segment an index run covers, and `log verify` would report it for good;
        // a store of an older format also still migrates its indexes on open.
        guard StreamIndexFile.headerMatches(path: base + ".sidx", segmentFirstPosition: header.firstPosition, segmentEvents: footer.eventCount),
            EventIDIndexFile.headerMatches(path: base + ".eidx", segmentFirstPosition: header.firstPosition, segmentEvents: footer.eventCount)
        else {
            let (streams, ids) = try rebuildIndexes(fd: fd, path: path, header: header, footer: footer)
            return SealedSegment(name: name, path: path, fd: fd, header: header, footer: footer, fileSize: size, streams: streams, ids: ids)
        }
        return SealedSegment(name: name, path: path, fd: fd, header: header, footer: footer, fileSize: size, streams: nil, ids: nil)
    }

    /// Rebuilds a sealed segment's index files from its data (they are missing, stale or damaged). Saving them is
    /// best effort (a reader may lack write permission, or race a writer that is sealing): the rebuilt indexes serve
    /// from memory then, and the upkeep tries again (``unsavedIndexFiles``).
    func rebuildIndexes(
        fd: FileDescriptor, path: String, header: SegmentHeader, footer: SegmentFooter
    ) throws -> (streams: StreamIndexFile, ids: EventIDIndexFile) {
        let base = String(path.dropLast(4))
        let (s, e) = try indexBytes(fd: fd, path: path, header: header, dataEnd: footer.dataEnd)
        let saved = (try? FileSystem.writeAtomically(s, to: base + ".sidx", sync: false)) != nil
            && (try? FileSystem.writeAtomically(e, to: base + ".eidx", sync: false)) != nil
        if saved { unsavedIndexFiles.remove(header.firstPosition) } else { unsavedIndexFiles.insert(header.firstPosition) }
        guard let streams = StreamIndexFile.load(MappedFile(copying: s, path: base + ".sidx"), segmentFirstPosition: header.firstPosition, segmentEvents: footer.eventCount),
            let ids = EventIDIndexFile.load(MappedFile(copying: e, path: base + ".eidx"), segmentFirstPosition: header.firstPosition, segmentEvents: footer.eventCount)
        else {
            throw EventStoreError.storeFailure("cannot load the indexes of \(path) after rebuilding them")
        }
        return (streams, ids)
    }

    /// A sealed segment's stream index, checked (its whole file) on first use, and rebuilt from the segment when
    /// damaged (with its id index, whose file the rebuild writes again too).
    ///
    /// - Parameter segment: One of ``sealed``.
    /// - Returns: The index.
    /// - Throws: A corruption or I/O error from reading the segment to rebuild it.
    func streamIndex(of segment: SealedSegment) throws -> StreamIndexFile {
        if let streams = segment.checkedStreams { return streams }
        if let streams = segment.loadStreamIndexFile() {
            segment.checkedStreams = streams
            return streams
        }
        return try rebuildIndexes(of: segment).streams
    }

    /// A sealed segment's event-id index, checked (its whole file) on first use, and rebuilt from the segment when
    /// missing, stale or damaged (with its stream index).
    ///
    /// - Parameter segment: One of ``sealed``.
    /// - Returns: The index.
    /// - Throws: A corruption or I/O error from reading the segment to rebuild it.
    func eventIDIndex(of segment: SealedSegment) throws -> EventIDIndexFile {
        if let ids = segment.ids { return ids }
        if let ids = segment.loadEventIDIndexFile() {
            segment.ids = ids
            return ids
        }
        return try rebuildIndexes(of: segment).ids
    }

    /// Rebuilds a sealed segment's index files from its data, and takes up the rebuilt indexes the segment has not
    /// checked yet (one it has stays: its mapping outlives the file it was of), or, `replacing`, in place of the ones it
    /// has (a lookup found them damaged).
    func rebuildIndexes(of segment: SealedSegment, replacing: Bool = false) throws -> (streams: StreamIndexFile, ids: EventIDIndexFile) {
        let rebuilt = try rebuildIndexes(fd: segment.fd, path: segment.path, header: segment.header, footer: segment.footer)
        if segment.checkedStreams == nil || replacing { segment.checkedStreams = rebuilt.streams }
        if segment.ids == nil || replacing {
            segment.ids = rebuilt.ids
            // The probes point into the mapping being let go.
            sealedIDProbesStale = true
        }
        return rebuilt
    }

    /// Runs a lookup in a sealed segment's stream index; when the lookup finds a page of the index damaged, the index
    /// is rebuilt from the segment's data (its files written again) and the lookup asks the rebuilt one.
    func lookUp<T>(streamsOf segment: SealedSegment, _ body: (StreamIndexFile) throws -> T) throws -> T {
        let index = try streamIndex(of: segment)
        do {
            return try body(index)
        } catch let damage as IndexDamage where index.pages != nil {
            _ = damage
            return try body(try rebuildIndexes(of: segment, replacing: true).streams)
        }
    }

    /// Runs a lookup in an index run's stream index, `nil` when the run has none usable; a page found damaged takes
    /// the run out of use (``IndexRun/markDamaged()``), and the answer is `nil` too: the caller asks the segments.
    func lookUp<T>(streamsOf run: IndexRun, _ body: (RunStreamIndexFile) throws -> T) throws -> T? {
        guard let streams = runStreams(of: run) else { return nil }
        do {
            return try body(streams)
        } catch is IndexDamage {
            run.markDamaged()
            return nil
        }
    }

    /// What answers for an index run's event ids: its `.eidx`, checked (its whole file, and against the checksum its
    /// `.ridx` names) at the first call; or, when that check fails, its segments' own id indexes. The damaged file is
    /// then removed (best effort, like every write of derived data), so that the next open passes the run over and
    /// the writer's upkeep builds it again, as it does for a run found damaged at open.
    ///
    /// - Parameter run: One of ``runs``.
    /// - Returns: The probes, oldest first.
    /// - Throws: A corruption or I/O error from rebuilding a segment's id index.
    func eventIDProbes(of run: IndexRun) throws -> [EventIDIndexFile.Probe] {
        if let ids = run.checkedIDs() { return [ids.probe] }
        run.idsFile.removeIfDamaged()
        return try sealed[run.segments].map { try eventIDIndex(of: $0).probe }
    }

    /// An index run's stream index, checked (its whole file) at the first call; `nil` when that check fails, and
    /// lookups then ask the run's segments. The damaged file is then removed, as for ``eventIDProbes(of:)``.
    ///
    /// - Parameter run: One of ``runs``.
    /// - Returns: The index, or `nil`.
    func runStreams(of run: IndexRun) -> RunStreamIndexFile? {
        if let streams = run.checkedStreams() { return streams }
        run.streamsFile.removeIfDamaged()
        return nil
    }

    /// The index files' bytes for a sealed segment, from its data.
    func indexBytes(fd: FileDescriptor, path: String, header: SegmentHeader, dataEnd: UInt64) throws -> (streams: [UInt8], ids: [UInt8]) {
        var order: [StreamID] = []
        var streams: [StreamID: (firstVersion: UInt64, positions: [UInt64])] = [:]
        var ids: [(key: UInt64, position: UInt64)] = []
        var scanner = FrameScanner(fd: fd, from: UInt64(LogFormat.segmentHeaderSize), to: dataEnd)
        try scanner.forEachPayload(file: path, decompressor: decompressor, dictionaries: dictionaries) { f, raw in
            try CommitCodec.walkEvents(raw, header: f.header) { e in
                let s = e.streamID()
                if streams[s] == nil {
                    order.append(s)
                    streams[s] = (e.version, [])
                }
                streams[s]!.positions.append(e.position)
                ids.append((EventIDIndexFile.key(e.id), e.position))
                return true
            }
        }
        return (
            StreamIndexFile.encode(segmentFirstPosition: header.firstPosition, streams: order.map { ($0, streams[$0]!.firstVersion, streams[$0]!.positions) }),
            EventIDIndexFile.encode(segmentFirstPosition: header.firstPosition, ids: ids)
        )
    }
}
