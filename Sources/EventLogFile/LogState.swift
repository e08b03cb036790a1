import EventLog
import Foundation
import PawtrailIO

/// One process's view of the store directory: its sealed segments, the active segment with its in-memory index,
/// the dictionaries, and a cache of decompressed frames. Not thread-safe: the owner serializes access.
///
/// ``refresh(writer:)`` brings the view up to date with the disk (other processes append too). As a writer
/// (holding the writer lock) it also recovers: a torn or corrupt tail of the active segment beyond the last
/// acknowledged commit is cut off and reported; damage inside acknowledged data is never cut, only reported.
final class LogState {
    let root: String
    let segmentsDirectory: String
    let options: FileEventStoreOptions
    let dictionaries: DictionarySet
    var sealed: [SealedSegment] = [] {
        // Rebuilt at the next lookup, not here: opening a store appends its segments one by one.
        didSet {
            sealedIDProbesStale = true
            uncompactedStale = true
        }
    }
    /// The first positions of the sealed segments not yet compacted, found again only when `sealed` changes: the
    /// committer asks after every group whether upkeep is due, which a scan of every sealed segment would make
    /// cost more as the store grows.
    var uncompacted: [UInt64] = []
    var uncompactedStale = false
    /// Index runs covering the oldest sealed segments, in order and without gaps: `sealed[0..<coveredSegments]`.
    var runs: [IndexRun] = [] {
        didSet { sealedIDProbesStale = true }
    }
    /// The event-id indexes to ask for an id, oldest first: each run's, then each uncovered sealed segment's, as
    /// plain values for the lookup loop; valid while `runs` and `sealed` hold them (and so their mappings),
    /// rebuilt whenever either changes.
    var sealedIDProbes: [EventIDIndexFile.Probe] = []
    var sealedIDProbesStale = false
    var active: ActiveSegment?
    /// Damage found inside the acknowledged part of the active segment: reads reaching it and appends fail.
    var activeDamage: EventStoreError?
    var recoveries: [RecoveryReport] = []
    var head: FileDescriptor?
    let decompressor = ZstdDecompressor()
    let compressor = ZstdCompressor()
    /// A second context, so a large commit compresses on two cores.
    let helperCompressor = ZstdCompressor()
    var cache = FrameCache(capacityBytes: 64 << 20)
    var lastRecordedAt = Timestamp(microsecondsSinceEpoch: 0)
    var dictionaryAttemptRawBytes: UInt64 = 0
    var dictionaryExists = false
    /// Where this process's last published commit ended (to skip re-checking the file after our own commit).
    var lastCommitEnd: UInt64?
    /// Sealed segments (by first position) whose index files could not be saved; they serve from memory until
    /// ``saveUnsavedIndexFiles()`` writes them.
    var unsavedIndexFiles: Set<UInt64> = []
    /// How many segments were sealed when saving them last failed: the upkeep tries again after the next roll.
    var indexFilesSaveFailedAt: Int?

    /// The first positions of the sealed segments still holding single commits (not yet compacted), oldest first.
    func uncompactedSegments() -> [UInt64] {
        if uncompactedStale {
            uncompacted = sealed.filter { $0.compactionPays(blockSize: options.blockSize) }.map(\.firstPosition)
            uncompactedStale = false
        }
        return uncompacted
    }

    /// How many of the oldest sealed segments index runs cover.
    var coveredSegments: Int { runs.last.map { $0.firstSegment + $0.segmentCount } ?? 0 }

    let runsDirectory: String

    init(root: String, options: FileEventStoreOptions) {
        self.root = root
        self.segmentsDirectory = root + "/" + LogFormat.segmentsDirectory
        self.runsDirectory = root + "/" + LogFormat.runsDirectory
        self.options = options
        self.dictionaries = DictionarySet(
            directory: root + "/" + LogFormat.dictionariesDirectory, commitLevel: options.commitCompressionLevel,
            blockLevel: options.blockCompressionLevel)
    }

    /// Throws the damage found in the active segment, if any: answers that depend on the whole active segment
    /// (a stream's events, its version, the log's end, the stats) would be partial past it.
    func requireIntact() throws {
        if let activeDamage { throw activeDamage }
    }

    /// The position the next event will take.
    var nextPosition: UInt64 {
        if let a = active { return a.firstPosition + a.eventCount }
        if let s = sealed.last { return s.lastPosition + 1 }
        return 0
    }

    /// Uncompressed bytes of every event in the store.
    var rawBytes: UInt64 { sealed.reduce(0) { $0 + $1.footer.rawBytes } + (active?.rawBytes ?? 0) }

    /// The states of sequential scans, so that several scans going on at once (a rebuild folding projections on
    /// both cores, each thread reading the log itself) each resume where they left off instead of taking one
    /// another's decompressed frame and read-ahead away.
    var cursors: [ScanCursor] = []
    var cursorClock: UInt64 = 0

    // MARK: - Refresh and recovery

    var headWritable = false

    /// The head file: read-only for readers; a writer needs (and reopens) it read-write.
    func headDescriptor(create: Bool) throws -> FileDescriptor? {
        if let head, headWritable || !create { return head }
        let path = root + "/" + LogFormat.headName
        if !create && !FileSystem.exists(path) { return nil }
        head = try FileDescriptor.open(path, create ? .readWriteCreate : .readOnly)
        headWritable = create
        return head
    }

    func segmentPath(_ name: String) -> String { segmentsDirectory + "/" + name }

    /// When this view last looked for sealed segments another process compacted.
    var foreignCompactionsCheckedAt: ContinuousClock.Instant?

    /// Reads the new files of sealed segments another process compacted since this view opened them, so that the
    /// old ones (kept open until then, and their disk space with them) are let go: one `stat` for each sealed
    /// segment not yet compacted in this view, whenever the segments are listed (at each roll) and at most once a
    /// second otherwise.
    func takeUpForeignCompactions() {
        foreignCompactionsCheckedAt = .now
        for segment in sealed where segment.header.layout == .commits {
            if let onDisk = FileSystem.fileID(segment.path), let ours = try? segment.fd.fileID(), onDisk != ours {
                try? reloadSealed(firstPosition: segment.firstPosition)
            }
        }
    }

    /// Brings the view up to date with the directory.
    func refresh(writer: Bool) throws {
        if let at = foreignCompactionsCheckedAt, ContinuousClock.now - at < .seconds(1) {} else { takeUpForeignCompactions() }
        let headRecord = try headDescriptor(create: writer).flatMap { try HeadFile.read(fd: $0) }
        // The directory only changes when a segment is sealed or created, which moves the head to a new
        // segment; while the head still names our active segment, catching up on its frames is enough.
        if let a = active, let h = headRecord, h.activeFirstPosition == a.firstPosition, activeDamage == nil {
            // Another writer may have sealed this segment and died before moving the head to the next one: then
            // the directory must be listed again (and the footer must not be mistaken for a torn commit).
            let untouched = try writer && untouchedSinceOurCommit(a, durableEnd: h.endOffset)
            let sealedElsewhere = try writer && !untouched && isSealedOnDisk(a)
            if untouched {
                return
            } else if !sealedElsewhere {
                try catchUp(a, durableEnd: h.endOffset, writer: writer)
                lastRecordedAt = max(lastRecordedAt, a.lastRecordedAt ?? lastRecordedAt, h.lastRecordedAt)
                if writer, h != currentHead() { try writeHead() }
                return
            }
        }
        let names = try FileSystem.contentsOfDirectory(segmentsDirectory).filter { LogFormat.firstPosition(ofSegmentName: $0) != nil }
        takeUpForeignCompactions()
        let knownSealed = sealed.last?.firstPosition
        /// Damage found in a last segment too short to hold its header.
        var shortActive: EventStoreError?
        for (i, name) in names.enumerated() {
            let first = LogFormat.firstPosition(ofSegmentName: name)!
            if let k = knownSealed, first <= k { continue }
            let path = segmentPath(name)
            let isLast = i == names.count - 1
            if let a = active, a.firstPosition == first, isLast, try SegmentFooter.readTrailer(fd: a.fd, fileSize: try a.fd.size()) == nil {
                continue
            }
            let fd = try openSegment(path)
            let size = try fd.size()
            if let trailer = try SegmentFooter.readTrailer(fd: fd, fileSize: size) {
                let segment = try loadSealed(name: name, path: path, fd: fd, size: size, trailer: trailer)
                let expected = sealed.last.map { $0.lastPosition + 1 } ?? 0
                guard segment.firstPosition == expected else {
                    throw EventStoreError.corrupted(file: path, offset: 0, reason: "segment starts at position \(segment.firstPosition), expected \(expected): a segment is missing")
                }
                if active?.firstPosition == first {
                    active = nil
                    activeDamage = nil
                }
                sealed.append(segment)
                continue
            }
            guard isLast else {
                throw EventStoreError.corrupted(file: path, offset: size, reason: "segment has no valid footer, but newer segments follow it")
            }
            if size < UInt64(LogFormat.segmentHeaderSize) {
                // The head names commits in it: the file was cut short after them (damage), not torn while it was
                // created. It stays for `log verify` and the operator, and the log is damaged from here.
                if let h = headRecord, h.activeFirstPosition == first, h.endOffset > UInt64(LogFormat.segmentHeaderSize) {
                    shortActive = .corrupted(
                        file: path, offset: size,
                        reason: "the segment file is cut short (\(size) bytes, not even its header), but the head says its commits end at offset \(h.endOffset)")
                    continue
                }
                // A crash while creating the segment: nothing was ever committed to it.
                guard writer else { continue }
                try FileSystem.removeFile(path)
                recoveries.append(RecoveryReport(segment: name, truncatedAt: 0, bytesRemoved: size, reason: "segment file was created but its header never completed"))
                continue
            }
            let header = try SegmentHeader.decode(try fd.read(at: 0, count: LogFormat.segmentHeaderSize), file: path)
            let expected = sealed.last.map { $0.lastPosition + 1 } ?? 0
            guard header.firstPosition == first else {
                throw EventStoreError.corrupted(file: path, offset: 0, reason: "the file's name does not match the first position in its header (\(header.firstPosition))")
            }
            guard first == expected else {
                throw EventStoreError.corrupted(file: path, offset: 0, reason: "segment starts at position \(first), expected \(expected): a segment is missing")
            }
            active = ActiveSegment(name: name, path: path, fd: fd, header: header)
            activeDamage = nil
        }
        if let shortActive {
            activeDamage = shortActive
        } else if active == nil, let h = headRecord, h.nextPosition > nextPosition {
            // The head names acknowledged events past every segment found: the segment that held them is gone.
            // Forgetting them would give their positions to the next append.
            activeDamage = .corrupted(
                file: segmentPath(LogFormat.segmentName(firstPosition: h.activeFirstPosition)), offset: 0,
                reason: "the segment is missing, but the head says the log ends before position \(h.nextPosition) (the segments found end before \(nextPosition))")
        }
        if let a = active {
            let durableEnd = headRecord.flatMap { $0.activeFirstPosition == a.firstPosition ? $0.endOffset : nil }
            let checkpointPath = ActiveCheckpoint.path(ofSegment: a.path)
            if a.frames.isEmpty, activeDamage == nil, FileSystem.exists(checkpointPath) {
                if let durableEnd,
                    let checkpoint = ActiveCheckpoint.load(path: checkpointPath, firstPosition: a.firstPosition, fd: a.fd, durableEnd: durableEnd)
                {
                    a.adopt(checkpoint)
                } else if writer {
                    // Damaged, or of a file the segment no longer is (a copy of the store): passed over, and removed
                    // so that `log verify` does not report it until the upkeep writes the next one.
                    try? FileSystem.removeFile(checkpointPath)
                }
            }
            try catchUp(a, durableEnd: durableEnd, writer: writer)
            if let at = a.lastRecordedAt { lastRecordedAt = max(lastRecordedAt, at) }
        }
        if let s = sealed.last { lastRecordedAt = max(lastRecordedAt, s.footer.lastRecordedAt) }
        if let h = headRecord { lastRecordedAt = max(lastRecordedAt, h.lastRecordedAt) }
        if writer, headRecord != currentHead() { try writeHead() }
        loadRuns()
    }

    /// Takes up the index runs on disk that cover the oldest sealed segments: from the first segment on, the
    /// longest valid run starting at each run's end. Damaged or stale run files are passed over (lookups then ask
    /// the segments), and the writer's upkeep builds them again. Only the files' headers are read here (their bodies
    /// at first use). Runs already loaded are kept, not checked again, unless one failed its check at first use.
    /// A `runs` directory that cannot be listed (missing, or damaged) means no runs: they are derived data, and
    /// must never fail the refresh that opens, reads and appends.
    func loadRuns() {
        guard FileSystem.exists(runsDirectory), let names = try? FileSystem.contentsOfDirectory(runsDirectory) else {
            runs = []
            return
        }
        let listed = Set(names)
        var ends: [UInt64: [UInt64]] = [:]
        for name in names {
            guard let (first, last) = IndexRun.positions(ofFileName: name) else { continue }
            ends[first, default: []].append(last)
        }
        var segmentEnding: [UInt64: Int] = [:]
        for (i, s) in sealed.enumerated() { segmentEnding[s.lastPosition] = i }
        var loaded: [IndexRun] = []
        var next = 0
        runs: while next < sealed.count, let candidates = ends[sealed[next].firstPosition] {
            for last in candidates.sorted(by: >) {
                guard let end = segmentEnding[last] else { continue }
                // A run that failed a check at first use is not kept: its damaged file was removed, so it is passed
                // over from here on, and the upkeep builds it again. Nor is one whose `.eidx` is gone (another
                // process found it damaged and removed it): kept for the mapping this view checked, it would never be
                // built again, and every other process would pass it over, and every run after it.
                if let known = runs.first(where: { $0.firstSegment == next && $0.lastPosition == last && !$0.isUnusable }),
                    listed.contains(IndexRun.baseName(firstPosition: known.firstPosition, lastPosition: known.lastPosition) + ".eidx")
                {
                    loaded.append(known)
                } else if let run = IndexRun.load(directory: runsDirectory, segments: sealed[next...end]) {
                    loaded.append(run)
                } else {
                    continue
                }
                next = end + 1
                continue runs
            }
            break
        }
        if loaded.map(ObjectIdentifier.init) != runs.map(ObjectIdentifier.init) { runs = loaded }
    }

    /// Takes up a run loaded (and so checked) outside the state lock, when it continues the runs in use over the
    /// segments it was loaded against; `false` when the view has changed since, and the caller falls back to
    /// ``loadRuns()``. Checking a run reads all of its files, which the writer's appends should not wait for.
    func adopt(_ run: IndexRun) -> Bool {
        let end = run.firstSegment + run.segmentCount - 1
        guard run.firstSegment == coveredSegments, end < sealed.count, sealed[run.firstSegment].firstPosition == run.firstPosition,
            sealed[end].lastPosition == run.lastPosition
        else { return false }
        runs.append(run)
        return true
    }

    /// Whether the active segment is exactly as this process's last commit left it: the head at our end, the
    /// file at the size we made it, and zeros right after our last frame. Any frame or footer another writer
    /// starts there has a nonzero length, so this proves nobody wrote since, without scanning.
    func untouchedSinceOurCommit(_ a: ActiveSegment, durableEnd d: UInt64) throws -> Bool {
        guard d == a.endOffset, lastCommitEnd == d else { return false }
        let size = try a.fd.size()
        if size == d { return true }
        guard size == a.allocatedEnd else { return false }
        return try a.fd.read(at: d, count: 4) == [0, 0, 0, 0]
    }

    /// Whether the active segment's file now ends with a trailer: another writer sealed it and died before
    /// moving the head to the next segment, so the directory must be listed again.
    func isSealedOnDisk(_ a: ActiveSegment) throws -> Bool {
        try SegmentFooter.readTrailer(fd: a.fd, fileSize: try a.fd.size()) != nil
    }

    func openSegment(_ path: String) throws -> FileDescriptor {
        let readWrite = Result { () throws(SystemError) in try FileDescriptor.open(path, .readWrite) }
        if case .failure(let e) = readWrite, e.errno == EACCES || e.errno == EROFS {
            return try FileDescriptor.open(path, .readOnly)
        }
        return try readWrite.get()
    }

    /// Indexes the active segment's frames beyond what this view has seen.
    func catchUp(_ a: ActiveSegment, durableEnd: UInt64?, writer: Bool) throws {
        guard activeDamage == nil else { return }
        let size = try a.fd.size()
        if writer { a.allocatedEnd = max(a.allocatedEnd, size) }
        defer {
            // The head moves only after a flush: a file shorter than it says has lost acknowledged commits, even
            // when it ends cleanly on a frame boundary (which the scan below takes for the end of the data).
            if activeDamage == nil, let durableEnd, size < durableEnd {
                activeDamage = .corrupted(
                    file: a.path, offset: size, reason: "the file ends at byte \(size), but the head says commits up to byte \(durableEnd) were acknowledged")
            }
        }
        // A reader goes only as far as the head says is durable; without a head it sees nothing new (a writer
        // may be mid-way through its first commit). A writer, holding the lock, examines everything on disk.
        let end = writer ? size : min(size, durableEnd ?? a.endOffset)
        guard a.endOffset < end else { return }
        defer {
            // Frames found past the durable end were written by a writer that died before flushing them, or
            // before moving the head: flush them before the head exposes them to readers.
            if writer, a.endOffset > (durableEnd ?? UInt64(LogFormat.segmentHeaderSize)) {
                try? a.fd.synchronizeData()
            }
        }
        var scanner = FrameScanner(fd: a.fd, from: a.endOffset, to: end)
        while true {
            var payload: [UInt8] = []
            var problem: String?
            let (found, stop) = try scanner.next { body, header in
                guard header.type == .commit else {
                    problem = "a block frame in a segment of single commits"
                    return
                }
                guard header.firstPosition == a.firstPosition + a.eventCount else {
                    problem = "frame holds positions from \(header.firstPosition), expected \(a.firstPosition + a.eventCount)"
                    return
                }
                do {
                    payload = try FrameIO.payload(of: body, header: header, decompressor: self.decompressor, dictionaries: self.dictionaries)
                } catch {
                    problem = "frame payload does not decompress: \(error)"
                }
            }
            if let f = found, problem == nil {
                do {
                    try a.index(frame: f.ref, payload: payload, header: f.header)
                    continue
                } catch {
                    problem = "frame events do not decode: \(error)"
                }
            }
            guard let offset = found?.offset ?? stop?.offset else { return }
            let reason = problem ?? stop?.reason ?? "end"
            // The head moves only after a flush, so nothing before its end was ever a write in progress: a file
            // that ends, or goes bad, before it has lost acknowledged commits.
            let insideAcknowledged = durableEnd.map { offset < $0 } ?? false
            if insideAcknowledged {
                // Acknowledged data is damaged (zeros included): never cut it off, never skip it.
                activeDamage = .corrupted(file: a.path, offset: offset, reason: reason)
                return
            }
            let later = try validFrame(in: a, after: offset, fileSize: size, from: a.firstPosition + a.eventCount)
            if let later, later.groupIndex == 0 {
                // A later group commit starts after the bad bytes, so the group they belong to was flushed
                // before it was written: this is damage, not a torn write.
                activeDamage = .corrupted(file: a.path, offset: offset, reason: reason)
                return
            }
            if case .zeroFill = stop, later == nil {
                // Preallocated space: the data ends here, cleanly.
                a.allocatedEnd = max(a.allocatedEnd, size)
                return
            }
            // A torn last group: nothing after the bad bytes, or only frames of the same group (after a power
            // loss, its later pages may have reached the disk before its first).
            if writer {
                try a.fd.truncate(to: offset)
                try a.fd.synchronizeData()
                a.allocatedEnd = offset
                recoveries.append(RecoveryReport(segment: a.name, truncatedAt: offset, bytesRemoved: size - offset, reason: reason))
            }
            return
        }
    }

    /// The index of the first byte that is not zero, eight at a time.
    static func firstNonzero(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw in
            let n = raw.count
            var z = 0
            while z + 8 <= n, raw.loadUnaligned(fromByteOffset: z, as: UInt64.self) == 0 { z += 8 }
            while z < n, raw[z] == 0 { z += 1 }
            return z < n ? z : nil
        }
    }

    /// The header of the first whole, checksummed commit frame at or past `position` that starts after
    /// `offset`, if any: what tells damage in the middle of the log from a torn last write (the `head` file,
    /// not being flushed, may be missing or behind after a power loss).
    func validFrame(in a: ActiveSegment, after offset: UInt64, fileSize: UInt64, from position: UInt64) throws -> FrameHeader? {
        guard fileSize > offset + 1 else { return nil }
        // The preallocated space is zeros, and every open that recovers reads it: find its first nonzero byte a
        // chunk at a time, so that an open reads the zeros through one small buffer rather than a new one the size
        // of the rest of the file. A frame's length (its first four bytes) is not zero, so none starts more than
        // three bytes before that byte.
        var start = offset + 1
        var nonzero: UInt64?
        while start < fileSize, nonzero == nil {
            let chunk = try a.fd.read(at: start, count: Int(min(64 << 10, fileSize - start)))
            guard !chunk.isEmpty else { break }
            nonzero = Self.firstNonzero(chunk).map { start + UInt64($0) }
            start += UInt64(chunk.count)
        }
        guard let nonzero else { return nil }
        let from = max(offset + 1, nonzero >= 3 ? nonzero - 3 : 0)
        let rest = try a.fd.read(at: from, count: Int(fileSize - from))
        return rest.withUnsafeBytes { raw in
            let n = raw.count
            var i = 0
            while i + LogFormat.frameOverhead + LogFormat.frameHeaderSize <= n {
                defer { i += 1 }
                // Cheap header checks first, so random bytes rarely reach the checksum.
                guard raw[i + 4] == FrameType.commit.rawValue, raw[i + 5] <= 2 else { continue }
                let length = Int(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian)
                guard length >= LogFormat.frameHeaderSize, length <= n - i - LogFormat.frameOverhead else { continue }
                let first = raw.loadUnaligned(fromByteOffset: i + 12, as: UInt64.self).littleEndian
                guard first >= position, first - position < (1 << 32) else { continue }
                let body = UnsafeRawBufferPointer(rebasing: raw[(i + 4)..<(i + 4 + length)])
                let crc = raw.loadUnaligned(fromByteOffset: i + 4 + length, as: UInt32.self).littleEndian
                if let h = FrameIO.openBody(body, storedCRC: crc) { return h }
            }
            return nil
        }
    }

    func loadSealed(
        name: String, path: String, fd: FileDescriptor, size: UInt64, trailer: (footerOffset: UInt64, footerLength: Int),
        reusingIndexesOf previous: SealedSegment? = nil
    ) throws -> SealedSegment {
        let header = try SegmentHeader.decode(try fd.read(at: 0, count: LogFormat.segmentHeaderSize), file: path)
        guard LogFormat.firstPosition(ofSegmentName: name) == header.firstPosition else {
            throw EventStoreError.corrupted(file: path, offset: 0, reason: "the file's name does not match the first position in its header (\(header.firstPosition))")
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

    // MARK: - Head

    func currentHead() -> HeadFile {
        HeadFile(
            activeFirstPosition: active?.firstPosition ?? nextPosition,
            endOffset: active?.endOffset ?? UInt64(LogFormat.segmentHeaderSize), nextPosition: nextPosition,
            lastRecordedAt: lastRecordedAt)
    }

    func writeHead(_ head: HeadFile? = nil) throws {
        // With damage in the active segment the in-memory end stops short of what is on disk; a head written
        // from it would make the damaged, acknowledged commits look like a torn tail to the next writer.
        guard activeDamage == nil, let fd = try headDescriptor(create: true) else { return }
        try fd.write((head ?? currentHead()).encoded(), at: 0)
    }

    /// Reads the head file without changing the view (to notice other processes' appends cheaply).
    func peekHead() throws -> HeadFile? {
        try headDescriptor(create: false).flatMap { try HeadFile.read(fd: $0) }
    }

}

/// A bounded cache of decompressed frames, least recently used out first.
struct FrameCache {
    struct Key: Hashable {
        var segment: UInt64
        var layout: SegmentLayout
        var offset: UInt64
    }

    /// Where an event starts in a frame's payload, and its commit's time.
    struct EventStart {
        var offset: Int
        var recordedAt: Timestamp
    }

    let capacityBytes: Int
    var entries: [Key: (header: FrameHeader, payload: [UInt8], tick: UInt64)] = [:]
    var eventStarts: [Key: [EventStart]] = [:]

    func starts(_ key: Key) -> [EventStart]? { entries[key] == nil ? nil : eventStarts[key] }

    mutating func setStarts(_ key: Key, _ starts: [EventStart]) {
        guard entries[key] != nil else { return }
        eventStarts[key] = starts
        bytes += starts.count * MemoryLayout<EventStart>.stride
    }
    var bytes = 0
    var tick: UInt64 = 0

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    func contains(_ key: Key) -> Bool { entries[key] != nil }

    mutating func get(_ key: Key) -> (FrameHeader, [UInt8])? {
        guard let e = entries[key] else { return nil }
        tick += 1
        entries[key]!.tick = tick
        return (e.header, e.payload)
    }

    mutating func insert(_ key: Key, header: FrameHeader, payload: [UInt8]) {
        guard payload.count <= capacityBytes / 4 else { return }
        tick += 1
        if let old = entries.updateValue((header, payload, tick), forKey: key) {
            bytes -= old.payload.count
            if let starts = eventStarts.removeValue(forKey: key) { bytes -= starts.count * MemoryLayout<EventStart>.stride }
        }
        bytes += payload.count
        if bytes > capacityBytes {
            // Evict the older half in one pass rather than one entry at a time.
            let sorted = entries.sorted { $0.value.tick < $1.value.tick }
            for (k, v) in sorted.prefix(sorted.count / 2) {
                entries[k] = nil
                bytes -= v.payload.count
                if let starts = eventStarts.removeValue(forKey: k) { bytes -= starts.count * MemoryLayout<EventStart>.stride }
            }
        }
    }
}

/// One sequential scan's reusable buffers (a frame as read and its decompressed payload), the frame that payload
/// holds (so the next page resuming inside it does not decompress it again) and its read-ahead.
final class ScanCursor {
    var frame: [UInt8] = []
    var payload: [UInt8] = []
    var scanned: (key: FrameCache.Key, header: FrameHeader)?
    /// Reads and decompresses the next frame on another core while this one is decoded.
    let prefetcher = FramePrefetcher()
    /// The position the scan stopped at: a page starting there is its continuation.
    var resumeAt: UInt64?
    var lastUsed: UInt64 = 0

    func walk(_ header: FrameHeader, _ body: (EventView) throws -> Bool, _ corrupt: (String) -> EventStoreError) throws {
        do {
            try payload.withUnsafeBytes { raw in
                try CommitCodec.walkEvents(UnsafeRawBufferPointer(rebasing: raw[..<Int(header.rawLength)]), header: header, body)
            }
        } catch let e as ByteReaderError {
            throw corrupt("frame events do not decode: \(e)")
        }
    }
}

/// Reads and decompresses one frame ahead of a sequential scan, on another thread, into buffers of its own:
/// the scan hands its used payload buffer back in exchange, so no buffer is ever shared and none is allocated
/// per frame. One frame in flight at most.
final class FramePrefetcher: @unchecked Sendable {
    let decompressor = ZstdDecompressor()
    var frame: [UInt8] = []
    var payload: [UInt8] = []
    var header: FrameHeader?
    var key: FrameCache.Key?
    var inFlight: DispatchGroup?
    /// A queue of its own rather than the global pool: the scan blocks on the fetch, and the global pool holds as many
    /// threads as cores, all of which a rebuild's scans may be holding; a fetch queued there then waits until the
    /// pool notices its threads are blocked (about a second). A serial queue always gets a thread of its own.
    private let queue = DispatchQueue(label: "pawtrail.read-ahead")

    /// Starts fetching a frame, after any fetch in flight has finished.
    func start(_ segment: any SegmentFile, _ ref: FrameRef, key: FrameCache.Key, dictionaries: DictionarySet) {
        inFlight?.wait()
        self.key = key
        header = nil
        let group = DispatchGroup()
        inFlight = group
        let target = UncheckedSegment(segment)
        queue.async(group: group) { [self] in
            header = try? LogState.load(target.segment, ref, frame: &frame, payload: &payload, decompressor: decompressor, dictionaries: dictionaries)
        }
    }

    /// The fetched frame's header, with its payload swapped into `payload`, if this frame was fetched and read
    /// cleanly; `nil` otherwise (the caller then reads it itself, and reports any damage).
    func take(_ key: FrameCache.Key, swappingPayloadWith other: inout [UInt8]) -> FrameHeader? {
        guard self.key == key else { return nil }
        inFlight?.wait()
        inFlight = nil
        self.key = nil
        guard let header else { return nil }
        swap(&payload, &other)
        return header
    }
}

/// A segment handed to the prefetch thread, which only reads its immutable file descriptor and layout.
private struct UncheckedSegment: @unchecked Sendable {
    let segment: any SegmentFile

    init(_ segment: any SegmentFile) {
        self.segment = segment
    }
}
