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
    /// The payload bytes single-event lookups have decoded (frames or parts): what a read of a few events cost.
    var lookupBytesDecoded = 0
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
    /// What an open needs of each sealed segment, read from its file the first time a refresh meets a segment this
    /// view does not know, and kept: its entries are checked against the files at each use.
    lazy var sealedCache = SealedSegmentCache.load(directory: segmentsDirectory)
    /// How many sealed segments this view took from ``sealedCache`` rather than their files (tests).
    var sealedFromCache = 0

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

    /// Whether ``refresh(writer:)`` ran: until then the view holds nothing of the log.
    private(set) var refreshed = false

    /// The head file, while the view has read nothing of the log yet; `nil` once it has, or when there is no head
    /// to read (the caller then refreshes the view).
    func headBeforeRefresh() throws -> HeadFile? {
        guard !refreshed, let fd = try headDescriptor(create: false) else { return nil }
        return try HeadFile.read(fd: fd)
    }

    /// Brings the view up to date with the directory.
    func refresh(writer: Bool) throws {
        refreshed = true
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
        let listing = try FileSystem.inodesInDirectory(segmentsDirectory)
        let names = listing.map(\.name).filter { LogFormat.firstPosition(ofSegmentName: $0) != nil }
        takeUpForeignCompactions()
        let knownSealed = sealed.last?.firstPosition
        // Made when a segment not yet known is met (an open; a refresh after a seal finds one or two).
        lazy var inodes = Dictionary(listing.lazy.map { ($0.name, $0.inode) }, uniquingKeysWith: { a, _ in a })
        var cacheChanged = false
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
            let status = try fd.status()
            let size = status.size
            var found = sealedCache.segment(named: name, path: path, fd: fd, status: status, inodes: inodes)
            if found != nil { sealedFromCache += 1 }
            if found == nil, let trailer = try SegmentFooter.readTrailer(fd: fd, fileSize: size) {
                let loaded = try loadSealed(name: name, path: path, fd: fd, size: size, trailer: trailer)
                cacheChanged = sealedCache.record(loaded, status: status, inodes: inodes) || cacheChanged
                found = loaded
            }
            if let segment = found {
                let expected = sealed.last.map { $0.lastPosition + 1 } ?? 0
                guard segment.firstPosition == expected else {
                    throw EventStoreError.corrupted(location: path, offset: 0, reason: "segment starts at position \(segment.firstPosition), expected \(expected): a segment is missing")
                }
                if active?.firstPosition == first {
                    active = nil
                    activeDamage = nil
                }
                sealed.append(segment)
                continue
            }
            guard isLast else {
                throw EventStoreError.corrupted(location: path, offset: size, reason: "segment has no valid footer, but newer segments follow it")
            }
            if size < UInt64(LogFormat.segmentHeaderSize) {
                // The head names commits in it: the file was cut short after them (damage), not torn while it was
                // created. It stays for `log verify` and the operator, and the log is damaged from here.
                if let h = headRecord, h.activeFirstPosition == first, h.endOffset > UInt64(LogFormat.segmentHeaderSize) {
                    shortActive = .corrupted(
                        location: path, offset: size,
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
                throw EventStoreError.corrupted(location: path, offset: 0, reason: "the file's name does not match the first position in its header (\(header.firstPosition))")
            }
            guard first == expected else {
                throw EventStoreError.corrupted(location: path, offset: 0, reason: "segment starts at position \(first), expected \(expected): a segment is missing")
            }
            active = ActiveSegment(name: name, path: path, fd: fd, header: header)
            activeDamage = nil
        }
        if cacheChanged {
            sealedCache.keep(Set(sealed.map(\.name)))
            sealedCache.save(directory: segmentsDirectory)
        }
        if let shortActive {
            activeDamage = shortActive
        } else if active == nil, let h = headRecord, h.nextPosition > nextPosition {
            // The head names acknowledged events past every segment found: the segment that held them is gone.
            // Forgetting them would give their positions to the next append.
            activeDamage = .corrupted(
                location: segmentPath(LogFormat.segmentName(firstPosition: h.activeFirstPosition)), offset: 0,
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
