import EventLog
import Foundation
import PawtrailIO

/// The store's upkeep beside the appends: dictionary training, compaction of sealed segments, index runs and the
/// active segment's checkpoint, run off the committer so that no append waits for them.
extension FileEventStore {
    // MARK: - Dictionary

    /// Trains the store's dictionary off the committer (it takes a few hundred milliseconds); commits use it
    /// from the first group after it is stored. A failed training is simply tried again later.
    func trainInBackground() {
        compaction.lock()
        guard !trainingRunning else {
            compaction.unlock()
            return
        }
        trainingRunning = true
        compaction.unlock()
        let thread = Thread { [self] in
            defer {
                compaction.lock()
                trainingRunning = false
                compaction.broadcast()
                compaction.unlock()
            }
            // The samples are read under the state lock, a page at a time, at the priority of the threads waiting
            // for it: at the lowest, on a busy machine, each page held readers and appends for seconds.
            guard let samples = try? dictionarySamples(), samples.sizes.count >= 1000 else { return }
            // The training holds no lock: it yields the cores to the appends it would otherwise delay.
            try? ThreadPriority.lowerCurrentThread()
            let capacity = min(64 << 10, samples.samples.count / 16)
            guard let dict = try? ZstdDictionary.train(samples: samples.samples, sizes: samples.sizes, capacity: capacity) else { return }
            _ = try? dictionaries.addFirst(dict)
        }
        thread.name = "pawtrail-dictionary"
        thread.start()
    }

    /// Up to 4 MiB of the newest events in the log's own encoding, read back page by page like any reader: the
    /// state lock is held for one page at a time, so appends go on while the samples are gathered. Twice as many
    /// samples trained a dictionary that compressed single records 0.7% better, in twice the time.
    func dictionarySamples() throws -> (samples: [UInt8], sizes: [Int]) {
        let budget = 4 << 20
        var samples: [UInt8] = []
        var sizes: [Int] = []
        var cursor = UInt64.max
        while samples.count < budget {
            // Each event's bytes exactly as the log encodes them; none is kept as a value.
            let (_, next) = try withState(writer: false) { s in
                try s.readBackward(from: cursor, limit: 1024, maxExamined: 1024) { e in
                    // A page may hold more than the budget has room for: training time grows with the samples.
                    guard samples.count < budget else { return nil }
                    samples.append(contentsOf: e.encoded)
                    sizes.append(e.encoded.count)
                    return nil
                }
            }
            guard let next else { break }
            cursor = next
        }
        return (samples, sizes)
    }

    // MARK: - Compaction

    func scheduleCompactionIfNeeded() {
        let due = stateLock.withLock {
            (options.compactSealedSegments && state.uncompactedSegments().contains { !compactionFailed.contains($0) })
                || indexRunDue(state) || state.indexFilesSaveDue || state.checkpointDue
        }
        guard due else { return }
        compaction.lock()
        defer { compaction.unlock() }
        guard !compactionRunning else {
            // The running pass chose its segments when it started: have it look again when it is done, or a
            // segment sealed meanwhile would wait for the next append (found when a bulk import's last sealed
            // segment stayed uncompacted after close).
            compactionRerun = true
            return
        }
        compactionRunning = true
        let thread = Thread { [self] in
            try? ThreadPriority.lowerCurrentThread()
            while true {
                _ = try? upkeep(compacting: options.compactSealedSegments)
                compaction.lock()
                if compactionRerun {
                    compactionRerun = false
                    compaction.unlock()
                    continue
                }
                compactionRunning = false
                compaction.broadcast()
                compaction.unlock()
                return
            }
        }
        thread.name = "pawtrail-compactor"
        thread.start()
    }

    /// One pass of the sealed segments' upkeep, in one process at a time: compacting them (when asked), then
    /// merging their indexes into index runs. The runs are built even when a segment fails to compact.
    func upkeep(compacting: Bool, everySegment: Bool = false) throws -> [String] {
        // This process's own unsaved index files need no lock of the upkeep's (writing one is an atomic rename of
        // bytes any process would write alike): saved first, so that neither another process at its upkeep nor a
        // lock file that cannot be opened leaves them due, and a thread started, after every commit group.
        stateLock.withLock {
            if state.indexFilesSaveDue { state.saveUnsavedIndexFiles() }
        }
        writeCheckpointIfDue()
        // One process at a time; another process already at it does the work.
        let lock = try FileDescriptor.open(path + "/" + LogFormat.compactionLockName, .readWriteCreate)
        guard try lock.lockExclusive(wait: false) else { return [] }
        defer { try? lock.unlock() }
        var compacted: [String] = []
        var failure: (any Error)?
        if compacting {
            do { compacted = try compactSealedSegments(everySegment: everySegment) } catch { failure = error }
        }
        try buildIndexRuns()
        if let failure { throw failure }
        return compacted
    }

    /// Writes a checkpoint of the active segment's index when it has gained enough events since the last, encoded
    /// from this process's index (``ActiveCheckpoint/encode(index:file:)``) outside the state lock: appends go on
    /// meanwhile.
    /// Best effort: a checkpoint only saves later opens a scan, so one that fails is tried again only after as many
    /// events more.
    func writeCheckpointIfDue(minimumEvents: UInt64? = nil) {
        let job: (segment: ActiveSegment, index: ActiveCheckpoint.IndexView)? = stateLock.withLock {
            // A checkpoint covers durable frames only.
            guard unflushed == nil else { return nil }
            let due: Bool
            if let minimumEvents, options.checkpointInterval > 0, state.activeDamage == nil, let a = state.active {
                due = a.eventCount >= a.checkpointedEvents + minimumEvents
            } else {
                due = state.checkpointDue
            }
            guard due, let a = state.active else { return nil }
            a.checkpointedEvents = a.eventCount
            // Values of the index as it stands (copied on write), so appends go on while it is encoded.
            return (a, ActiveCheckpoint.IndexView(a))
        }
        guard let (a, index) = job else { return }
        let path = ActiveCheckpoint.path(ofSegment: a.path)
        do {
            // Without flushes the data may not be on disk yet: a checkpoint must never name frames a crash can lose.
            if options.durability == .noSync { try a.fd.synchronizeData() }
            guard let bytes = ActiveCheckpoint.encode(index: index, file: try a.fd.fileID()) else { return }
            try FileSystem.writeAtomically(bytes, to: path, sync: false)
        } catch {
            return
        }
        // Sealed meanwhile, by this process or another: the seal removed the checkpoint before this one was
        // written. (A seal after this check removes this one itself.)
        let sealed = stateLock.withLock { state.active !== a }
        if sealed || (try? SegmentFooter.readTrailer(fd: a.fd, fileSize: a.fd.size())) != nil { try? FileSystem.removeFile(path) }
    }

    /// Whether enough sealed segments lie beyond the index runs to make another, or a run in use failed its check
    /// at first use, and is to be passed over and built again (under the state lock).
    func indexRunDue(_ s: LogState) -> Bool {
        let size = options.indexRunSegments
        guard size > 1 else { return false }
        if s.runs.contains(where: \.isUnusable) { return true }
        let covered = s.coveredSegments
        return s.sealed.count - covered >= size && indexRunFailedAt != s.sealed[covered].firstPosition
    }

    /// Builds index runs over the sealed segments beyond the last run, `indexRunSegments` at a time, each from
    /// its segments' files outside the state lock, then takes them up. The caller holds the upkeep lock.
    func buildIndexRuns() throws {
        let builder = IndexRunBuilder(dictionaries: state.dictionaries)
        while true {
            let pending: (segments: ArraySlice<SealedSegment>, checked: [StreamIndexFile?])? = try withState(writer: false) { s in
                // Another process's upkeep may have built runs since this view last listed them (it lists them when
                // a segment rolls): take those up rather than build them again.
                s.loadRuns()
                guard indexRunDue(s) else { return nil }
                let covered = s.coveredSegments
                let segments = s.sealed[covered..<(covered + options.indexRunSegments)]
                return (segments, segments.map(\.checkedStreams))
            }
            guard let (segments, checked) = pending, let first = segments.first, let last = segments.last else { break }
            // The segments' stream indexes no lookup has checked yet (an open and a seal read only their headers) are
            // checked here, outside the state lock, since each is read whole; one that fails is rebuilt from its
            // segment under the lock, as a lookup would.
            var streams: [StreamIndexFile] = []
            for (segment, known) in zip(segments, checked) {
                if let index = known ?? segment.loadStreamIndexFile() {
                    streams.append(index)
                    continue
                }
                do {
                    streams.append(try withState(writer: false) { s in try s.streamIndex(of: segment) })
                } catch {
                    stateLock.withLock { indexRunFailedAt = first.firstPosition }
                    throw error
                }
            }
            let base = state.runsDirectory + "/" + IndexRun.baseName(firstPosition: first.firstPosition, lastPosition: last.lastPosition)
            // A run that cannot be written is given up like one over damaged segments: the upkeep runs after every
            // commit group, and each attempt reads all of the run's segments again.
            do {
                let built = try builder.build(Array(segments), streams: streams)
                if !FileSystem.exists(state.runsDirectory) { try FileSystem.createDirectory(state.runsDirectory) }
                // Derived data, like the segments' index files: written without a flush, checked when loaded. The
                // `.ridx` goes last, since it is the file that makes a run visible to `loadRuns`.
                try FileSystem.writeAtomically(built.ids, to: base + ".eidx", sync: false)
                try FileSystem.writeAtomically(built.streams, to: base + ".ridx", sync: false)
            } catch {
                stateLock.withLock { indexRunFailedAt = first.firstPosition }
                throw EventStoreError.reported(error)
            }
            // Checked here, outside the state lock (it reads both files whole), then taken up under it. Files just
            // written that fail their check are removed, so that the run counts as failed rather than be taken up
            // by its headers, found damaged at its first lookup, and built again after every commit group; files
            // that could not be mapped (EMFILE, ENOMEM) are sound, and stay to be taken up by their headers.
            let loaded = IndexRun.load(directory: state.runsDirectory, segments: segments)
            let run = loaded.flatMap { run in run.checkedStreams() != nil && run.checkedIDs() != nil ? run : nil }
            if let loaded, run == nil { loaded.removeFilesIfDamaged() }
            let advanced = try withState(writer: false) { s in
                // The stream indexes checked above spare the lookups that check.
                for (segment, index) in zip(segments, streams) where segment.checkedStreams == nil { segment.checkedStreams = index }
                if let run, s.adopt(run) { return true }
                s.loadRuns()
                return (s.runs.last?.lastPosition).map { $0 >= last.lastPosition } ?? false
            }
            guard advanced else {
                stateLock.withLock { indexRunFailedAt = first.firstPosition }
                throw EventStoreError.storeFailure("the index run just written to \(base).ridx does not load")
            }
        }
        try removeUnusedRunFiles()
    }

    /// Removes run files no run uses (superseded, damaged, or left by a writer that died while writing them),
    /// except those beyond the covered segments, which may yet be taken up once the gap before them is filled.
    func removeUnusedRunFiles() throws {
        guard FileSystem.exists(state.runsDirectory) else { return }
        let (used, coveredEnd): (Set<String>, UInt64) = stateLock.withLock {
            let names = state.runs.map { IndexRun.baseName(firstPosition: $0.firstPosition, lastPosition: $0.lastPosition) }
            return (Set(names.flatMap { [$0 + ".ridx", $0 + ".eidx"] }), state.runs.last.map { $0.lastPosition + 1 } ?? 0)
        }
        for name in try FileSystem.contentsOfDirectory(state.runsDirectory) where !used.contains(name) {
            let stem = name.hasSuffix(".eidx") ? String(name.dropLast(5)) + ".ridx" : name
            if let (first, _) = IndexRun.positions(ofFileName: stem), first >= coveredEnd { continue }
            try? FileSystem.removeFile(state.runsDirectory + "/" + name)
        }
    }

    /// Compacts the sealed segments whose compaction pays (``SealedSegment/compactionPays(blockSize:)``), or, with
    /// `everySegment`, every one still holding commits.
    func compactSealedSegments(everySegment: Bool) throws -> [String] {
        let blockSize = options.blockSize
        let candidates = try withState(writer: false) { s in
            s.sealed.filter { everySegment ? $0.header.layout == .commits : $0.compactionPays(blockSize: blockSize) }
                .map { ($0.firstPosition, $0.path, $0.name) }
        }
        let compactor = SegmentCompactor(
            dictionaries: state.dictionaries, blockSize: options.blockSize, level: options.blockCompressionLevel,
            columnar: options.columnarBlocks)
        var done: [String] = []
        for (first, segmentPath, name) in candidates {
            do {
                if try compactor.compact(path: segmentPath) { done.append(name) }
                // Rewritten now, or already by another process: either way, read the new file from here on.
                try stateLock.withLock { try state.reloadSealed(firstPosition: first) }
            } catch {
                stateLock.withLock { _ = compactionFailed.insert(first) }
                throw EventStoreError.reported(error)
            }
        }
        return done
    }
}
