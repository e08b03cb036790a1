public import EventLog
import Foundation
import PawtrailIO
import Synchronization

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

    let state: LogState
    let stateLock = NSLock()
    let writerLockPath: String

    struct Pending {
        var request: AppendRequest
        var prepared: PreparedCommit?
        /// Called once, on the committer thread, with the append's outcome.
        var complete: @Sendable (Result<AppendResult, any Error>) -> Void
    }

    /// Compression contexts for appending tasks preparing their commits.
    let compressors = CompressorPool(keep: 8)
    /// The state's dictionaries, which are thread-safe (the state itself is not).
    let dictionaries: DictionarySet

    let queue = NSCondition()
    var pending: [Pending] = []
    var committerRunning = false
    /// How many appends the committer's previous group held (committer thread only, under `queue`).
    var lastGroupSize = 0
    /// Whether the committer is committing a group it took from `pending` (under `queue`).
    var groupInFlight = false
    /// How many callers are waiting in ``close()`` (under `queue`): an idle committer then ends at once.
    var closeRequests = 0
    /// Set once a write, flush or head update failed: appends are refused from then on (under `stateLock`).
    var failure: EventStoreError?
    /// Where the appends made with ``AppendRequest/defersFlush`` and not yet flushed begin: the active segment and
    /// their first frame's offset (under `stateLock`). They are in this process's index, and the head names none of
    /// them, so no other process reads them and no other writer runs while they wait (the writer lock is held).
    var unflushed: (segment: ActiveSegment, offset: UInt64)? {
        didSet { if unflushed == nil { unflushedFrames = 0 } }
    }
    /// How many frames the unflushed appends wrote. The frames written after them number their place on from there
    /// (``FrameHeader/groupIndex``), as one group commit's do: after a power loss, any of them may have reached the
    /// disk before an earlier one, and recovery must take the lot for one torn group, not for damage.
    var unflushedFrames = 0
    /// For tests: runs on the committer thread once a group is written and flushed, before the head names it. Set
    /// it before the appends it is meant for.
    var beforePublishingGroup: (() -> Void)?
    /// For tests: how long an idle committer keeps the writer lock, and the longest it holds it (see ``lockLinger``
    /// and ``maxLockHold``), so that a test can hold deferred appends unflushed. Set it before the appends.
    var writerLockHold: (linger: TimeInterval, max: Duration)?
    /// The writer lock file, opened once; only the committer thread uses it.
    var writerLock: FileDescriptor?
    /// Since when the committer has held the writer lock without a break (committer thread only). While it
    /// holds it, no other process can have written, so the next group skips catching up with the files.
    var writerLockHeldSince: ContinuousClock.Instant?
    let compaction = NSCondition()
    var compactionRunning = false
    /// Guarded by `compaction`: segments became due while a pass ran, which then makes another pass.
    var compactionRerun = false
    /// Guarded by `compaction`, like `compactionRunning`; `close` waits for both.
    var trainingRunning = false
    /// Segments whose compaction failed (damage): not retried in this process; `log verify` reports them.
    var compactionFailed = Set<UInt64>()
    /// The first position of an index run that could not be built (damage in its segments) or written: not retried
    /// in this process, so lookups keep asking those segments one by one; `log verify` reports the damage.
    var indexRunFailedAt: UInt64?

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
    /// - Throws: ``EventStoreError/storeNotFound(location:)``, ``EventStoreError/incompatibleFormat(location:found:supported:)``,
    ///   ``EventStoreError/corrupted(location:offset:reason:)`` or an I/O error.
    public static func open(path: String, options: FileEventStoreOptions = FileEventStoreOptions()) throws -> FileEventStore {
        do {
            _ = try StoreManifest.openOrCreate(root: path, create: options.createIfMissing)
            let state = LogState(root: path, options: options)
            let store = FileEventStore(path: path, options: options, state: state)
            if options.loadsOnFirstUse { return store }
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
        let prepared = prepare(request)
        return try await withCheckedThrowingContinuation { continuation in
            enqueue([Pending(request: request, prepared: prepared, complete: { continuation.resume(with: $0) })])
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

    /// The single-event lookup, which decodes only the part of the commit holding the event, not a scan of the commit.
    public func event(at position: UInt64) async throws -> RecordedEvent? {
        try withState(writer: false) { s in
            try s.requireIntact()
            return position < s.nextPosition ? try s.event(at: position) : nil
        }
    }

    public func event(withID id: UUID) async throws -> RecordedEvent? {
        try withState(writer: false) { s in
            try s.requireIntact()
            return try s.committedEvent(id)
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
        if let head = try headBeforeRefresh() { return head.nextPosition == 0 ? nil : head.nextPosition - 1 }
        return try withState(writer: false) { s in
            try s.requireIntact()
            return s.nextPosition == 0 ? nil : s.nextPosition - 1
        }
    }

    public func knownHead() async throws -> LogHead? {
        guard let head = try headBeforeRefresh(), head.nextPosition > 0 else { return nil }
        return LogHead(position: head.nextPosition - 1, recordedAt: head.lastRecordedAt)
    }

    /// The head file, while this store has read nothing of the log (``FileEventStoreOptions/loadsOnFirstUse``): the
    /// head names every acknowledged commit, and readers stop at it.
    private func headBeforeRefresh() throws(EventStoreError) -> HeadFile? {
        do {
            return try stateLock.withLock { try state.headBeforeRefresh() }
        } catch let e as SystemError {
            throw EventStoreError(e)
        } catch {
            throw .storeFailure("\(error)")
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
        // Once the last group is acknowledged, its checkpoint is due: taking it here, while the committer indexes
        // the group and then frees it, overlaps the two (a 10,000-event import spent 5 ms freeing, then 8 ms on
        // the checkpoint). The checkpoint waits for the indexing, which holds the state lock.
        while committerRunning && (groupInFlight || !pending.isEmpty) { queue.wait() }
        let early = committerRunning
        queue.unlock()
        if early { writeCheckpointIfDue(minimumEvents: Self.checkpointAtCloseEvents) }
        queue.lock()
        while committerRunning { queue.wait() }
        closeRequests -= 1
        queue.unlock()
        // The committer flushed any deferred appends before it let the writer lock go; this only covers a store
        // whose committer never ran since.
        stateLock.withLock { try? flushLocked() }
        compaction.lock()
        while compactionRunning || trainingRunning { compaction.wait() }
        compaction.unlock()
        // A process that finds many events past the last checkpoint (its own, or other processes' it caught up on)
        // leaves one, so that the next open scans none of them; one that finds a few leaves that to later processes.
        writeCheckpointIfDue(minimumEvents: Self.checkpointAtCloseEvents)
    }

    /// The fewest events past the last checkpoint for which ``close()`` writes one. Every CLI command is a process
    /// that opens the store and scans the commits past the checkpoint: at 128, a command on a store of 2,000,000
    /// events took 9.4 to 9.5 ms of CPU, at 1,024 10.2 to 10.9 ms (`tools/command-cpu.sh 300`), the checkpoint
    /// written (about 2 MB, not flushed: it is a cache) once every 128 commands.
    static let checkpointAtCloseEvents: UInt64 = 128

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
        do { return try upkeep(compacting: true, everySegment: true) } catch { throw EventStoreError.reported(error) }
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
                throw EventStoreError.corrupted(location: e.file, offset: 0, reason: e.reason)
            }
        }
    }

    // MARK: - Reading

    static func isInCategory(_ stream: UnsafeRawBufferPointer, _ category: [UInt8]) -> Bool {
        // A category is what comes before a stream id's first '-', so a name holding '-' is no category.
        guard !category.contains(UInt8(ascii: "-")), stream.count >= category.count else { return false }
        for i in 0..<category.count where stream[i] != category[i] { return false }
        if stream.count == category.count { return true }
        // The category is the prefix before the first '-': no '-' may come earlier.
        return stream[category.count] == UInt8(ascii: "-")
    }

    /// How many events one filtered page may examine before it returns (possibly empty) with a cursor.
    static let maxExaminedPerPage = 65_536

    func page(_ state: LogState, _ request: ReadRequest, keep: (EventView) -> String?) throws -> ReadBatch {
        switch request.direction {
        case .forward:
            let (events, next) = try state.readForward(from: request.from ?? 0, limit: request.limit, maxExamined: Self.maxExaminedPerPage, keep: keep)
            return ReadBatch(events: events, next: next)
        case .backward:
            let (events, next) = try state.readBackward(from: request.from ?? UInt64.max, limit: request.limit, maxExamined: Self.maxExaminedPerPage, keep: keep)
            return ReadBatch(events: events, next: next)
        }
    }

    func readStream(_ state: LogState, _ stream: StreamID, _ request: ReadRequest) throws -> ReadBatch {
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
                throw EventStoreError.corrupted(location: "stream index", offset: c.position, reason: "index says \(stream)@\(c.version), the log holds \(e.stream)@\(e.version)")
            }
            if let names {
                var type = e.type
                guard type.withUTF8({ names.match(UnsafeRawBufferPointer($0)) }) != nil else { continue }
            }
            events.append(e)
        }
        return ReadBatch(events: events, next: next)
    }

}
