public import EventLog
import Foundation
import PawtrailIO

/// The embedded event store: a directory of zstd-compressed, checksummed, append-only segment files.
///
/// Appends from many tasks are group-committed by one committer thread: it takes the store's writer lock
/// (`flock`, so other processes' writers wait their turn), catches up with what they wrote, plans every waiting
/// append with ``AppendPlanner``, writes all their commit frames in one `write`, flushes once, and only then
/// resumes the callers. Readers never block writers: they read up to the durable end recorded in the `head`
/// file, so they never see a torn or not-yet-durable commit.
public final class FileEventStore: EventStore, @unchecked Sendable {
    /// The store directory.
    public let path: String
    /// The options it was opened with.
    public let options: FileEventStoreOptions

    private let state: LogState
    private let stateLock = NSLock()
    private let writerLockPath: String

    private struct Pending {
        var request: AppendRequest
        var prepared: PreparedCommit?
        var continuation: CheckedContinuation<AppendResult, any Error>
    }

    /// Compression contexts for appending tasks preparing their commits.
    private let compressors = CompressorPool(keep: 8)
    /// The state's dictionaries, which are thread-safe (the state itself is not).
    private let dictionaries: DictionarySet

    private let queue = NSCondition()
    private var pending: [Pending] = []
    private var committerRunning = false
    /// How many appends the committer's previous group held (committer thread only, under `queue`).
    private var lastGroupSize = 0
    /// Whether the committer is committing a group it took from `pending` (under `queue`).
    private var groupInFlight = false
    /// How many callers are waiting in ``close()`` (under `queue`): an idle committer then ends at once.
    private var closeRequests = 0
    /// Set once a write, flush or head update failed: appends are refused from then on (under `stateLock`).
    private var failure: EventStoreError?
    /// Where the appends made with ``AppendRequest/defersFlush`` and not yet flushed begin: the active segment and
    /// their first frame's offset (under `stateLock`). They are in this process's index, and the head names none of
    /// them, so no other process reads them and no other writer runs while they wait (the writer lock is held).
    private var unflushed: (segment: ActiveSegment, offset: UInt64)? {
        didSet { if unflushed == nil { unflushedFrames = 0 } }
    }
    /// How many frames the unflushed appends wrote. The frames written after them number their place on from there
    /// (``FrameHeader/groupIndex``), as one group commit's do: after a power loss, any of them may have reached the
    /// disk before an earlier one, and recovery must take the lot for one torn group, not for damage.
    private var unflushedFrames = 0
    /// For tests: runs on the committer thread once a group is written and flushed, before the head names it. Set
    /// it before the appends it is meant for.
    var beforePublishingGroup: (() -> Void)?
    /// For tests: how long an idle committer keeps the writer lock, and the longest it holds it (see ``lockLinger``
    /// and ``maxLockHold``), so that a test can hold deferred appends unflushed. Set it before the appends.
    var writerLockHold: (linger: TimeInterval, max: Duration)?
    /// The writer lock file, opened once; only the committer thread uses it.
    private var writerLock: FileDescriptor?
    /// Since when the committer has held the writer lock without a break (committer thread only). While it
    /// holds it, no other process can have written, so the next group skips catching up with the files.
    private var writerLockHeldSince: ContinuousClock.Instant?
    private let compaction = NSCondition()
    private var compactionRunning = false
    /// Guarded by `compaction`: segments became due while a pass ran, which then makes another pass.
    private var compactionRerun = false
    /// Guarded by `compaction`, like `compactionRunning`; `close` waits for both.
    private var trainingRunning = false
    /// Segments whose compaction failed (damage): not retried in this process; `log verify` reports them.
    private var compactionFailed = Set<UInt64>()
    /// The first position of an index run that could not be built (damage in its segments) or written: not retried
    /// in this process, so lookups keep asking those segments one by one; `log verify` reports the damage.
    private var indexRunFailedAt: UInt64?

    private init(path: String, options: FileEventStoreOptions, state: LogState) {
        self.path = path
        self.options = options
        self.state = state
        self.dictionaries = state.dictionaries
        self.writerLockPath = path + "/" + LogFormat.lockName
    }

    /// Opens (or, with ``FileEventStoreOptions/createIfMissing``, creates) the store in a directory.
    ///
    /// When no other process is writing, opening also recovers the store: a torn tail left by a crash is cut
    /// back to the last whole commit and reported in ``recovery``.
    ///
    /// - Parameters:
    ///   - path: The store directory.
    ///   - options: How to open and write.
    /// - Returns: The open store.
    /// - Throws: ``EventStoreError/storeNotFound(path:)``, ``EventStoreError/incompatibleFormat(path:found:supported:)``,
    ///   ``EventStoreError/corrupted(file:offset:reason:)`` or an I/O error.
    public static func open(path: String, options: FileEventStoreOptions = FileEventStoreOptions()) throws -> FileEventStore {
        do {
            _ = try StoreManifest.openOrCreate(root: path, create: options.createIfMissing)
            let state = LogState(root: path, options: options)
            let store = FileEventStore(path: path, options: options, state: state)
            // Recover now if nobody is writing; otherwise the active writer already did. A store that cannot be
            // written at all (a read-only mount, a copy without write permission) is opened for reading: nobody
            // can write there, and readers stop at the head, so a torn tail is never read.
            let lock: FileDescriptor
            do {
                lock = try FileDescriptor.open(store.writerLockPath, .readWriteCreate)
            } catch let e where [EROFS, EACCES, EPERM].contains(e.errno) {
                try state.refresh(writer: false)
                return store
            }
            if try lock.lockExclusive(wait: false) {
                defer { try? lock.unlock() }
                try state.refresh(writer: true)
                // What a process killed mid-way left, unless an upkeep is at work (its files are not leftovers).
                if let upkeep = try? FileDescriptor.open(path + "/" + LogFormat.compactionLockName, .readWriteCreate),
                    (try? upkeep.lockExclusive(wait: false)) == true
                {
                    CrashLeftovers.remove(root: path)
                    try? upkeep.unlock()
                }
            } else {
                try state.refresh(writer: false)
            }
            return store
        } catch let e as SystemError {
            throw EventStoreError(e)
        }
    }

    /// What opening repaired: each torn tail cut off, oldest first. Empty when nothing needed repair.
    public var recoveries: [RecoveryReport] {
        stateLock.withLock { state.recoveries }
    }

    /// The first repair made when opening, if any.
    public var recovery: RecoveryReport? { recoveries.first }

    // MARK: - EventStore

    public func append(_ request: AppendRequest) async throws -> AppendResult {
        try AppendPlanner.validate(request)
        // Encoding here, on the caller's thread, takes the work off the committer, the one thread every writer
        // waits for. Under concurrent load a commit of less than a page is stored uncompressed: compressing it
        // costs more CPU than its flush saves (it writes one page either way), and compaction compresses the
        // sealed segment anyway. A lone writer compresses with the dictionary, so a small store stays small.
        let busy = queue.withLock { !pending.isEmpty || groupInFlight || lastGroupSize > 1 }
        let prepared = PreparedCommit.prepare(
            request, underLoad: busy, level: options.commitCompressionLevel,
            dictionary: { (try? dictionaries.newest()).flatMap { $0 }.map { ($0.id, $0.commit) } }, compressors: compressors)
        return try await withCheckedThrowingContinuation { continuation in
            queue.lock()
            pending.append(Pending(request: request, prepared: prepared, continuation: continuation))
            if !committerRunning {
                committerRunning = true
                let thread = Thread { [self] in runCommitter() }
                thread.name = "pawtrail-committer"
                thread.start()
            }
            // The committer waits for the first append, or for as many as its last group held: waking it for
            // each one in between would only take a core from the writers it is waiting for.
            if pending.count == 1 || pending.count >= lastGroupSize { queue.signal() }
            queue.unlock()
        }
    }

    public func read(_ request: ReadRequest) async throws -> ReadBatch {
        guard request.limit > 0 else { throw EventStoreError.invalidRequest("read limit must be at least 1") }
        return try withState(writer: false) { state in
            let types = request.eventTypes
            switch request.source {
            case .stream(let stream):
                try state.requireIntact()
                return try readStream(state, stream, request)
            case .all:
                let names = types.map(TypeNames.init)
                let keep: (EventView) -> String? = { e in names.map { $0.match(e.type) } ?? e.typeName() }
                return try page(state, request, keep: keep)
            case .category(let category):
                let bytes = Array(category.utf8)
                let names = types.map(TypeNames.init)
                let keep: (EventView) -> String? = { e in
                    guard Self.isInCategory(e.stream, bytes) else { return nil }
                    return names.map { $0.match(e.type) } ?? e.typeName()
                }
                return try page(state, request, keep: keep)
            }
        }
    }

    public func streamVersion(of stream: StreamID) async throws -> UInt64? {
        try withState(writer: false) { s in
            try s.requireIntact()
            return try s.currentVersion(stream)
        }
    }

    public func position(of stream: StreamID, version: UInt64) async throws -> UInt64? {
        try withState(writer: false) { s in
            try s.requireIntact()
            return try s.streamPositions(stream, versions: version...version).first { $0.version == version }?.position
        }
    }

    public func lastPosition() async throws -> UInt64? {
        try withState(writer: false) { s in
            try s.requireIntact()
            return s.nextPosition == 0 ? nil : s.nextPosition - 1
        }
    }

    public func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let next = try withState(writer: false) { $0.nextPosition }
            if next > 0, position.map({ next - 1 > $0 }) ?? true { return true }
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: - Maintenance

    /// Waits for the committer and any compaction to finish. Appends after `close` start them again.
    public func close() {
        queue.lock()
        closeRequests += 1
        queue.broadcast()
        while committerRunning { queue.wait() }
        closeRequests -= 1
        queue.unlock()
        // The committer flushed any deferred appends before it let the writer lock go; this only covers a store
        // whose committer never ran since.
        stateLock.withLock { try? flushLocked() }
        compaction.lock()
        while compactionRunning || trainingRunning { compaction.wait() }
        compaction.unlock()
        // A process that appended many events since the last checkpoint (a bulk import) leaves one, so that the next
        // open scans none of them; one that appended a few leaves that to later processes.
        writeCheckpointIfDue(minimumEvents: Self.checkpointAtCloseEvents)
    }

    /// The fewest events past the last checkpoint for which ``close()`` writes one.
    static let checkpointAtCloseEvents: UInt64 = 1_024

    /// Rewrites every sealed segment not yet compacted into large compressed blocks (whatever
    /// ``FileEventStoreOptions/compactSealedSegments`` says), and merges the indexes of sealed segments into index
    /// runs (see ``FileEventStoreOptions/indexRunSegments``). Waits first for this store's background upkeep; returns
    /// at once, doing nothing, when another process is at this work.
    ///
    /// - Returns: The segment files rewritten (empty too when another process is at the work).
    /// - Throws: An I/O or corruption error; when a segment fails to compact, the runs are still built first.
    @discardableResult
    public func compact() throws -> [String] {
        compaction.lock()
        while compactionRunning { compaction.wait() }
        compactionRunning = true
        compaction.unlock()
        defer {
            compaction.lock()
            compactionRunning = false
            compaction.broadcast()
            compaction.unlock()
        }
        // A lock file that cannot be opened (a read-only store) is an I/O error like any other, not an untyped one.
        do { return try upkeep(compacting: true) } catch { throw EventStoreError.reported(error) }
    }

    /// The segment file names, oldest first.
    ///
    /// - Throws: An I/O error.
    public func segmentNames() throws -> [String] {
        try withState(writer: false) { s in s.sealed.map(\.name) + (s.active.map { [$0.name] } ?? []) }
    }

    /// Runs `body` with the up-to-date state, under the state lock, translating system errors.
    func withState<T>(writer: Bool, _ body: (LogState) throws -> T) throws -> T {
        try stateLock.withLock {
            do {
                try state.refresh(writer: writer)
                return try body(state)
            } catch let e as SystemError {
                throw EventStoreError(e)
            } catch let e as ZstdError {
                throw EventStoreError.storeFailure("\(e)")
            } catch let e as IndexDamage {
                // Lookups rebuild a damaged index and ask again; what is left (a whole scan for `log stats`) says where.
                throw EventStoreError.corrupted(file: e.file, offset: 0, reason: e.reason)
            }
        }
    }

    // MARK: - Reading

    private static func isInCategory(_ stream: UnsafeRawBufferPointer, _ category: [UInt8]) -> Bool {
        // A category is what comes before a stream id's first '-', so a name holding '-' is no category.
        guard !category.contains(UInt8(ascii: "-")), stream.count >= category.count else { return false }
        for i in 0..<category.count where stream[i] != category[i] { return false }
        if stream.count == category.count { return true }
        // The category is the prefix before the first '-': no '-' may come earlier.
        return stream[category.count] == UInt8(ascii: "-")
    }

    /// The longest a committer waits for more appends to join a group, when the previous group was larger
    /// than what is waiting: several writers then share one flush instead of queueing behind each other's.
    private static let gatherWindow: TimeInterval = 0.000_2

    /// How long an idle committer keeps the writer lock for the next append, and the longest it holds it
    /// across back-to-back groups before letting other processes' writers in.
    private static let lockLinger: TimeInterval = 0.001
    private static let maxLockHold: Duration = .milliseconds(5)

    /// Lets other processes write again (committer thread only), once the deferred appends are flushed: another
    /// writer must never build on frames that are not durable.
    private func releaseWriterLock() {
        guard writerLockHeldSince != nil else { return }
        // A failed flush cut the frames off and failed the store: the lock can go either way.
        stateLock.withLock { try? flushLocked() }
        writerLockHeldSince = nil
        try? writerLock?.unlock()
    }

    public func flush() async throws {
        try stateLock.withLock {
            if let failure { throw failure }
            try flushLocked()
        }
    }

    /// Flushes the deferred appends, and writes the head that names them (the caller holds `stateLock`). When that
    /// fails, they are cut off the segment and the store refuses further appends.
    private func flushLocked() throws {
        guard let u = unflushed else { return }
        do {
            try u.segment.fd.synchronizeData()
            try state.writeHead()
            unflushed = nil
        } catch {
            let e = (error as? SystemError).map { EventStoreError($0) } ?? .storeFailure("the head could not be written: \(error)")
            try? u.segment.fd.truncate(to: u.offset)
            try? u.segment.fd.synchronizeData()
            failure = e
            unflushed = nil
            throw e
        }
    }

    /// How many events one filtered page may examine before it returns (possibly empty) with a cursor.
    private static let maxExaminedPerPage = 65_536

    private func page(_ state: LogState, _ request: ReadRequest, keep: (EventView) -> String?) throws -> ReadBatch {
        switch request.direction {
        case .forward:
            let (events, next) = try state.readForward(from: request.from ?? 0, limit: request.limit, maxExamined: Self.maxExaminedPerPage, keep: keep)
            return ReadBatch(events: events, next: next)
        case .backward:
            let (events, next) = try state.readBackward(from: request.from ?? UInt64.max, limit: request.limit, maxExamined: Self.maxExaminedPerPage, keep: keep)
            return ReadBatch(events: events, next: next)
        }
    }

    private func readStream(_ state: LogState, _ stream: StreamID, _ request: ReadRequest) throws -> ReadBatch {
        // Without a type filter a page reaches at most `limit` versions plus the one that becomes `next`.
        var reach = 0...UInt64.max
        if request.eventTypes == nil, let top = try state.currentVersion(stream) {
            let span = UInt64(request.limit)
            switch request.direction {
            case .forward:
                let from = request.from ?? 0
                let (end, overflow) = from.addingReportingOverflow(span)
                reach = from...(overflow ? UInt64.max : end)
            case .backward:
                let from = min(request.from ?? top, top)
                reach = (from >= span ? from - span : 0)...from
            }
        }
        let all = try state.streamPositions(stream, versions: reach)
        var candidates: ArraySlice<(version: UInt64, position: UInt64)>
        switch request.direction {
        case .forward:
            let from = request.from ?? 0
            let start = all.firstIndex { $0.version >= from } ?? all.count
            candidates = all[start...]
        case .backward:
            let from = request.from ?? UInt64.max
            let end = all.lastIndex { $0.version <= from }.map { $0 + 1 } ?? 0
            candidates = ArraySlice(all[..<end].reversed())
        }
        // Types match by their bytes, as in the log and category reads (not by `String` equality).
        let names = request.eventTypes.map(TypeNames.init)
        var events: [RecordedEvent] = []
        var next: UInt64?
        for c in candidates {
            if events.count == request.limit {
                next = c.version
                break
            }
            let e = try state.event(at: c.position)
            guard e.stream == stream, e.version == c.version else {
                throw EventStoreError.corrupted(file: "stream index", offset: c.position, reason: "index says \(stream)@\(c.version), the log holds \(e.stream)@\(e.version)")
            }
            if let names {
                var type = e.type
                guard type.withUTF8({ names.match(UnsafeRawBufferPointer($0)) }) != nil else { continue }
            }
            events.append(e)
        }
        return ReadBatch(events: events, next: next)
    }

    // MARK: - Group commit

    private func runCommitter() {
        while true {
            queue.lock()
            if pending.isEmpty, writerLockHeldSince != nil, closeRequests == 0 {
                // A lone writer's next append usually follows at once: keep the writer lock a moment for it.
                _ = queue.wait(until: Date().addingTimeInterval(writerLockHold?.linger ?? Self.lockLinger))
            }
            if pending.isEmpty {
                queue.unlock()
                releaseWriterLock()
                queue.lock()
            }
            if pending.isEmpty {
                // Idle: let the thread end (at once when someone is closing); the next append starts a new one.
                if closeRequests == 0 { _ = queue.wait(until: Date().addingTimeInterval(0.5)) }
                if pending.isEmpty {
                    committerRunning = false
                    queue.broadcast()
                    queue.unlock()
                    return
                }
            }
            // Writers just resumed from the previous group are about to append again: give them a moment.
            if pending.count < lastGroupSize {
                let deadline = Date().addingTimeInterval(Self.gatherWindow)
                while pending.count < lastGroupSize && queue.wait(until: deadline) {}
            }
            var batch: [Pending] = []
            var bytes = 0
            while !pending.isEmpty && batch.count < 4096 && bytes < (32 << 20) {
                let p = pending.removeFirst()
                bytes += p.request.entries.reduce(0) { $0 + $1.event.payloadSize }
                batch.append(p)
            }
            lastGroupSize = batch.count
            groupInFlight = true
            queue.unlock()
            var acknowledged = false
            func acknowledge(_ results: [Result<AppendResult, any Error>]) {
                queue.withLock { groupInFlight = false }
                for (p, r) in zip(batch, results) { p.continuation.resume(with: r) }
                acknowledged = true
            }
            let results = commit(batch.map(\.request), prepared: batch.map(\.prepared), acknowledge: acknowledge)
            if !acknowledged { acknowledge(results) }
            // Other processes' writers get their turn at least this often: released here, before gathering the
            // next group, so a writer blocked on the lock has that while to take it.
            if let since = writerLockHeldSince, ContinuousClock.now - since > writerLockHold?.max ?? Self.maxLockHold { releaseWriterLock() }
            scheduleCompactionIfNeeded()
        }
    }

    /// Plans, writes and flushes a group, and publishes it.
    ///
    /// - Parameters:
    ///   - acknowledge: Called with the outcomes once the group is durable and the head names it, before the
    ///     in-memory index catches up (see ``LogState/publish(_:at:frames:events:acknowledge:)``); not called
    ///     when the group fails or writes nothing.
    /// - Returns: Each append's outcome.
    private func commit(
        _ requests: [AppendRequest], prepared: [PreparedCommit?], acknowledge: ([Result<AppendResult, any Error>]) -> Void
    ) -> [Result<AppendResult, any Error>] {
        if let failure = stateLock.withLock({ failure }) { return requests.map { _ in .failure(failure) } }
        // A group of deferred appends is written, published to this process and left unflushed; any other group
        // flushes, and its flush covers the deferred frames before it too.
        let deferred = options.durability == .sync && requests.allSatisfy(\.defersFlush)
        do {
            let caughtUp = writerLockHeldSince != nil
            if !caughtUp {
                if writerLock == nil { writerLock = try FileDescriptor.open(writerLockPath, .readWriteCreate) }
                try writerLock!.lockExclusive()
                writerLockHeldSince = .now
            }
            // Whatever goes wrong, the next group starts from the files again.
            var keepLock = false
            defer { if !keepLock { releaseWriterLock() } }
            var group = try stateLock.withLock { try planGroup(requests, prepared: prepared, caughtUp: caughtUp) }
            guard let write = group.write else {
                // After a failure making room, the next group starts from the files again.
                keepLock = !group.failedToStart
                // An append that is not deferred answers from durable state only: a retry of a deferred append, or
                // a version that counts deferred events, waits for their flush.
                if !deferred, let e = stateLock.withLock({ () -> (any Error)? in
                    do { try flushLocked() } catch { return error }
                    return nil
                }) {
                    return requests.map { _ in .failure(e) }
                }
                return group.results
            }
            // Readers in this process go on while the group is written and flushed: the state they read
            // does not change until the frames are published below, and the head only moves then.
            do {
                try write.segment.fd.write(write.bytes, at: write.offset)
                if options.durability == .sync && !deferred { try write.segment.fd.synchronizeData() }
            } catch {
                // The bytes may be partly on disk; cut them off so the file ends at the last durable commit.
                // After a failed write or flush the page cache cannot be trusted: refuse further appends in
                // this process (reopen the store to continue), and fail every append of this group that depends on
                // the write.
                let e = EventStoreError(error)
                stateLock.withLock {
                    try? write.segment.fd.truncate(to: unflushed?.offset ?? write.offset)
                    failure = e
                    unflushed = nil
                }
                group.failDependents(e)
                return group.results
            }
            beforePublishingGroup?()
            do {
                try stateLock.withLock {
                    try state.publish(write.segment, at: write.offset, frames: write.frames, events: write.events, writeHead: !deferred) {
                        acknowledge(group.results)
                    }
                    if !deferred {
                        unflushed = nil
                    } else {
                        if unflushed == nil { unflushed = (write.segment, write.offset) }
                        unflushedFrames += write.frames.count
                    }
                }
            } catch {
                // Durable, but the head could not name it: the group is not committed. Nobody has seen it (readers
                // stop at the head, and this process holds the writer lock), so cut it off, or a later writer would
                // adopt appends that were reported failed. As after a failed write, this process
                // then refuses further appends.
                let e = (error as? SystemError).map { EventStoreError($0) } ?? .storeFailure("the head could not be written: \(error)")
                stateLock.withLock {
                    try? write.segment.fd.truncate(to: unflushed?.offset ?? write.offset)
                    try? write.segment.fd.synchronizeData()
                    failure = e
                    unflushed = nil
                }
                group.failDependents(e)
                return group.results
            }
            stateLock.withLock {
                // The group is committed now. Sealing and training are upkeep: if they fail, the commits stand,
                // and the next group (or open) tries again; they never turn a commit into a reported failure.
                if let a = state.active, a.endOffset >= UInt64(options.segmentSize) || a.eventCount >= UInt64(options.maxSegmentEvents) {
                    do {
                        // Only flushed frames are sealed in.
                        try flushLocked()
                        try state.sealActive()
                        try state.createActiveSegment()
                    } catch {}
                }
                if (try? state.dictionaryTrainingDue()) == true { trainInBackground() }
            }
            keepLock = true
            return group.results
        } catch let e as SystemError {
            return requests.map { _ in .failure(EventStoreError(e)) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// A planned group commit: each append's outcome, and the frames to write for those that write.
    private struct PlannedGroup {
        struct Write {
            var segment: ActiveSegment
            var offset: UInt64
            var bytes: [UInt8]
            var frames: [(offsetInBatch: Int, length: Int, header: FrameHeader, payload: [UInt8])]
            var events: [AppendPlanner.PlannedEvent]
        }

        var results: [Result<AppendResult, any Error>]
        /// Per append: whether its outcome stands or falls with the group's write, because it writes, or because
        /// its planning saw what an earlier append of the group writes (a retry of it, a version after it).
        var dependsOnWrite: [Bool]
        var write: Write?
        /// Making room for the write failed: nothing was written.
        var failedToStart = false

        /// The group's write failed (or could not start): every append that depends on it fails with `error`;
        /// the others (retries of earlier groups' appends, appends refused on their own) keep their outcomes.
        mutating func failDependents(_ error: any Error) {
            for i in results.indices where dependsOnWrite[i] { results[i] = .failure(error) }
        }
    }

    /// Plans and encodes a group under the state lock (and the writer lock), and makes room for it.
    private func planGroup(_ requests: [AppendRequest], prepared: [PreparedCommit?], caughtUp: Bool) throws -> PlannedGroup {
        if !caughtUp { try state.refresh(writer: true) }
        var results: [Result<AppendResult, any Error>] = []
        var dependsOnWrite: [Bool] = []
        // What earlier appends of this group wrote, for the later ones to see (unused for a group of one).
        var versions: [StreamID: UInt64] = [:]
        // An id written earlier in the group: where its event is in `plannedEvents`, its position and time. The
        // record itself is built only in the rare case a later append of the group names the same id.
        var written: [UUID: (index: Int, position: UInt64, at: Timestamp)] = [:]
        let overlay = requests.count > 1
        var frames: [(offsetInBatch: Int, length: Int, header: FrameHeader, payload: [UInt8])] = []
        var plannedEvents: [AppendPlanner.PlannedEvent] = []
        var bytes: [UInt8] = []
        var position = state.nextPosition
        var lastAt = state.lastRecordedAt
        for (request, prepared) in zip(requests, prepared) {
            var sawGroup = false
            do {
                let outcome = try AppendPlanner.plan(
                    request,
                    currentVersion: { s in
                        if overlay, let v = versions[s] {
                            sawGroup = true
                            return v
                        }
                        return try self.state.currentVersion(s)
                    },
                    committedEvent: { id in
                        if overlay, let w = written[id] {
                            sawGroup = true
                            let e = plannedEvents[w.index]
                            return RecordedEvent(
                                position: w.position, stream: e.stream, version: e.version, type: e.event.type, id: e.event.id,
                                recordedAt: w.at, metadata: e.event.metadata, data: e.event.data)
                        }
                        return try self.state.committedEvent(id)
                    })
                switch outcome {
                case .alreadyCommitted(let result):
                    results.append(.success(result))
                    dependsOnWrite.append(sawGroup)
                case .write(let events, let streams):
                    guard !events.isEmpty else {
                        results.append(.success(AppendResult(firstPosition: nil, lastPosition: nil, streams: streams)))
                        dependsOnWrite.append(sawGroup)
                        continue
                    }
                    let at = max(Timestamp.now(), lastAt)
                    lastAt = at
                    // A segment an older build created may be read by it: no frame it cannot read goes there.
                    var columnarCommits = options.columnarBlocks
                    if let active = state.active, active.header.minimumReaderVersion < LogFormat.columnarPartsVersion { columnarCommits = false }
                    let payload: [UInt8]
                    let stored: FrameIO.StoredPayload
                    if let prepared, prepared.matches(events) {
                        payload = prepared.payload
                        stored = prepared.stored
                    } else {
                        payload = CommitCodec.encodeCommit(events)
                        stored = try FrameIO.storeCommit(
                            payload, underLoad: requests.count > 1, compressor: state.compressor,
                            level: options.commitCompressionLevel, dictionary: { try state.dictionaries.newest().map { ($0.id, $0.commit) } },
                            helper: state.helperCompressor, columnar: columnarCommits)
                    }
                    let start = bytes.count
                    let header = FrameIO.encode(
                        type: .commit, firstPosition: position, eventCount: events.count, commitCount: 1, firstRecordedAt: at,
                        lastRecordedAt: at, stored: stored, groupIndex: UInt16(min(unflushedFrames + frames.count, Int(UInt16.max))),
                        into: &bytes)
                    frames.append((start, bytes.count - start, header, payload))
                    // Only now that nothing can fail is the append part of the group for the appends after it: an
                    // append that failed above must leave no versions or ids behind.
                    if overlay {
                        // Only what it writes: a stream it merely expected reads the same from the files.
                        for (i, e) in events.enumerated() {
                            versions[e.stream] = e.version
                            written[e.event.id] = (plannedEvents.count + i, position + UInt64(i), at)
                        }
                    }
                    plannedEvents.append(contentsOf: events)
                    results.append(.success(AppendResult(firstPosition: position, lastPosition: position + UInt64(events.count) - 1, streams: streams)))
                    dependsOnWrite.append(true)
                    position += UInt64(events.count)
                }
            } catch {
                results.append(.failure(error))
                dependsOnWrite.append(sawGroup)
            }
        }
        var group = PlannedGroup(results: results, dependsOnWrite: dependsOnWrite, write: nil)
        guard !frames.isEmpty else { return group }
        do {
            // A roll seals the active segment, and the head then names the next one: the deferred frames are
            // flushed first, so that they are sealed in durable and the flush that follows has the new segment's.
            if unflushed != nil, state.wouldRoll(bytes: bytes.count, events: plannedEvents.count) { try flushLocked() }
            let (segment, offset) = try state.prepareAppend(bytes: bytes.count, events: plannedEvents.count)
            group.write = .init(segment: segment, offset: offset, bytes: bytes, frames: frames, events: plannedEvents)
        } catch {
            // Nothing of the group was written: only the appends that depend on its write fail.
            group.failedToStart = true
            group.failDependents(EventStoreError.reported(error))
        }
        return group
    }

    // MARK: - Dictionary

    /// Trains the store's dictionary off the committer (it takes a few hundred milliseconds); commits use it
    /// from the first group after it is stored. A failed training is simply tried again later.
    private func trainInBackground() {
        compaction.lock()
        guard !trainingRunning else {
            compaction.unlock()
            return
        }
        trainingRunning = true
        compaction.unlock()
        let thread = Thread { [self] in
            // Upkeep yields the cores to the appends it would otherwise delay.
            try? ThreadPriority.lowerCurrentThread()
            defer {
                compaction.lock()
                trainingRunning = false
                compaction.broadcast()
                compaction.unlock()
            }
            guard let samples = try? dictionarySamples(), samples.sizes.count >= 1000 else { return }
            let capacity = min(64 << 10, samples.samples.count / 16)
            guard let dict = try? ZstdDictionary.train(samples: samples.samples, sizes: samples.sizes, capacity: capacity) else { return }
            _ = try? dictionaries.addFirst(dict)
        }
        thread.name = "pawtrail-dictionary"
        thread.start()
    }

    /// Up to 8 MiB of the newest events in the log's own encoding, read back page by page like any reader: the
    /// state lock is held for one page at a time, so appends go on while the samples are gathered.
    private func dictionarySamples() throws -> (samples: [UInt8], sizes: [Int]) {
        let budget = 8 << 20
        var samples: [UInt8] = []
        var sizes: [Int] = []
        var cursor = UInt64.max
        while samples.count < budget {
            // Each event's bytes exactly as the log encodes them; none is kept as a value.
            let (_, next) = try withState(writer: false) { s in
                try s.readBackward(from: cursor, limit: 1024, maxExamined: 1024) { e in
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

    private func scheduleCompactionIfNeeded() {
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
    private func upkeep(compacting: Bool) throws -> [String] {
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
            do { compacted = try compactSealedSegments() } catch { failure = error }
        }
        try buildIndexRuns()
        if let failure { throw failure }
        return compacted
    }

    /// Writes a checkpoint of the active segment's index when it has gained enough events since the last, from the
    /// segment's frames (added to the newest checkpoint on disk) outside the state lock: appends go on meanwhile.
    /// Best effort: a checkpoint only saves later opens a scan, so one that fails is tried again only after as many
    /// events more.
    private func writeCheckpointIfDue(minimumEvents: UInt64? = nil) {
        let job: (segment: ActiveSegment, end: UInt64)? = stateLock.withLock {
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
            return (a, a.endOffset)
        }
        guard let (a, end) = job else { return }
        let path = ActiveCheckpoint.path(ofSegment: a.path)
        do {
            // Without flushes the data may not be on disk yet: a checkpoint must never name frames a crash can lose.
            if options.durability == .noSync { try a.fd.synchronizeData() }
            let previous = ActiveCheckpoint.load(path: path, firstPosition: a.firstPosition, fd: a.fd, durableEnd: end)
            guard let bytes = try ActiveCheckpoint.build(
                segment: a.path, fd: a.fd, firstPosition: a.firstPosition, upTo: end, previous: previous,
                decompressor: ZstdDecompressor(), dictionaries: state.dictionaries)
            else { return }
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
    private func indexRunDue(_ s: LogState) -> Bool {
        let size = options.indexRunSegments
        guard size > 1 else { return false }
        if s.runs.contains(where: \.isUnusable) { return true }
        let covered = s.coveredSegments
        return s.sealed.count - covered >= size && indexRunFailedAt != s.sealed[covered].firstPosition
    }

    /// Builds index runs over the sealed segments beyond the last run, `indexRunSegments` at a time, each from
    /// its segments' files outside the state lock, then takes them up. The caller holds the upkeep lock.
    private func buildIndexRuns() throws {
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
    private func removeUnusedRunFiles() throws {
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

    private func compactSealedSegments() throws -> [String] {
        let candidates = try withState(writer: false) { s in
            s.sealed.filter { $0.header.layout == .commits }.map { ($0.firstPosition, $0.path, $0.name) }
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
