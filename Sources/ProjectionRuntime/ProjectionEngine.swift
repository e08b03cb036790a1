public import EventLog
public import Events
#if canImport(Glibc)
import Glibc
#endif
import PawtrailJSON
public import Projections
import Synchronization

/// Runs the read models over a store: keeps each projection's state and position in a checkpoint, catches up
/// with the log before a read, rebuilds from scratch (blue/green on a schema change), writes snapshots for time
/// travel, and audits a live state against a fresh rebuild.
public struct ProjectionEngine: Sendable {
    /// The log.
    public let store: any EventStore
    /// Where states live.
    public let checkpoints: any CheckpointStore
    /// The fewest positions between two snapshots of a projection. The spacing grows with the state's size (one
    /// position per 4 bytes of state), so snapshots cost a rebuild at most about 4 bytes per event read, whatever
    /// the projection; time travel folds at most one spacing of events.
    public var snapshotInterval: UInt64
    /// States larger than this are not snapshotted (time travel to them folds from their checkpoint or the start,
    /// or, for a view that names its streams, only those streams).
    public var maxSnapshotBytes: Int = 32 << 20
    /// How events are decoded.
    public var catalog: EventCatalog
    /// How many threads a rebuild of several projections folds on. Each thread reads and decodes the log itself
    /// for its own projections (sharing decoded events across cores costs more in reference counting than the
    /// decoding it saves), so more threads than cores only repeat work. Projections are spread over them by
    /// ``Projection/foldCost``.
    public var foldThreads: Int = ProjectionEngine.defaultFoldThreads

    /// One thread per online core, at most four.
    public static var defaultFoldThreads: Int { max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Creates an engine.
    public init(store: any EventStore, checkpoints: any CheckpointStore, snapshotInterval: UInt64 = 50_000, catalog: EventCatalog = .domain) {
        self.store = store
        self.checkpoints = checkpoints
        self.snapshotInterval = snapshotInterval
        self.catalog = catalog
    }

    /// A projection's state as loaded.
    public struct Loaded<State: Sendable>: Sendable {
        /// The state.
        public var state: State
        /// The last position it reflects, `nil` for none.
        public var position: UInt64?
        /// Events it caught up with in this call.
        public var caughtUp: Int
        /// Whether it was (re)built from scratch in this call.
        public var rebuilt: Bool
    }

    /// How far a rebuild has come.
    public struct Progress: Sendable {
        /// Positions of the log passed over so far (by the slowest thread).
        public var eventsRead: Int
        public var position: UInt64
        public var lastPosition: UInt64
        public var elapsed: Duration
    }

    /// What a rebuild did.
    public struct RebuildResult: Sendable {
        public var projections: [String]
        /// The events of the log up to ``lastPosition``: each projection was given every one of them of its types.
        public var eventsRead: Int
        /// Events decoded, summed over the threads (an event whose type projections on two threads read is decoded
        /// by each).
        public var eventsDecoded: Int = 0
        public var lastPosition: UInt64?
        public var elapsed: Duration
    }

    // MARK: Reading with catch-up

    /// The projection's state, caught up with the log unless `catchUp` is false.
    ///
    /// A missing checkpoint of the current schema version means a first use or a schema change: the projection is
    /// rebuilt, and older versions' checkpoints are removed only once the new one is written (processes of the old
    /// build keep reading theirs until then). When another process holds the projection's lock (it is rebuilding
    /// or saving), the state is folded in memory instead of waiting.
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - catchUp: Whether to fold the events committed since the checkpoint.
    /// - Returns: The state and its position.
    /// - Throws: ``ProjectionFailure``, store and checkpoint errors.
    public func load<P: Projection>(_ type: P.Type, catchUp: Bool = true) async throws -> Loaded<P.State> {
        let last = try await store.lastPosition()
        // A writer takes the lock before reading the checkpoint, so it never saves a state older than one another
        // process saved meanwhile.
        let lock = catchUp ? try checkpoints.tryLock(P.name) : nil
        defer { lock?.unlock() }
        if let checkpoint = try checkpoints.load(P.name, version: P.schemaVersion), Self.fits(checkpoint, last) {
            let folder = try Folder(P.self, bytes: checkpoint.state, position: checkpoint.position, applied: checkpoint.eventsApplied)
            guard catchUp, let end = last, end > (checkpoint.position ?? .max) || checkpoint.position == nil else {
                return Loaded(state: folder.state, position: checkpoint.position, caughtUp: 0, rebuilt: false)
            }
            let read = try await fold([folder], after: checkpoint.position, through: end, snapshots: lock != nil)
            if lock != nil {
                var updated = checkpoint
                updated.position = folder.position
                updated.eventsApplied = folder.applied
                updated.savedAt = .now()
                updated.state = folder.encodedState()
                try checkpoints.save(updated)
            }
            return Loaded(state: folder.state, position: folder.position, caughtUp: read, rebuilt: false)
        }
        if !catchUp {
            throw EventStoreError.storeFailure(
                "projection '\(P.name)' has no stored state of schema version \(P.schemaVersion) yet; read it without --no-catch-up to build it")
        }
        guard lock != nil else {
            let folder = Folder(P.self)
            if let last { try await fold([folder], after: nil, through: last, snapshots: false) }
            return Loaded(state: folder.state, position: last, caughtUp: 0, rebuilt: true)
        }
        let folder = Folder(P.self)
        _ = try await rebuildLocked([folder], progress: nil)
        return Loaded(state: folder.state, position: folder.position, caughtUp: 0, rebuilt: true)
    }

    /// Whether a checkpoint can belong to this log: one that reflects positions the log does not have (a log
    /// restored from an older copy, or another store's states) would be served as if it were right and then
    /// catch up from the wrong place, so it is rebuilt instead.
    static func fits(_ checkpoint: Checkpoint, _ last: UInt64?) -> Bool {
        guard let p = checkpoint.position else { return true }
        guard let last else { return false }
        return p <= last
    }

    // MARK: Rebuild

    /// Rebuilds projections from scratch, replacing their checkpoints and snapshots: spread over ``foldThreads``
    /// threads by their fold cost, each thread making one pass over the log for its projections.
    ///
    /// - Parameters:
    ///   - types: The projections.
    ///   - progress: Called after each page read.
    /// - Returns: What was read and how long it took.
    /// - Throws: ``EventStoreError/storeFailure(_:)`` when another process is rebuilding one of them;
    ///   ``ProjectionFailure``; store and checkpoint errors.
    public func rebuild(_ types: [any Projection.Type], progress: (@Sendable (Progress) -> Void)? = nil) async throws -> RebuildResult {
        var locks: [any ProjectionLock] = []
        defer { for l in locks { l.unlock() } }
        for t in types {
            guard let lock = try checkpoints.tryLock(t.name) else {
                throw EventStoreError.storeFailure("projection '\(t.name)' is being rebuilt or saved by another process; try again")
            }
            locks.append(lock)
        }
        return try await rebuildLocked(types.map { Self.folder($0) }, progress: progress)
    }

    static func folder<P: Projection>(_ type: P.Type) -> AnyFolder { Folder(P.self) }

    private func rebuildLocked(_ folders: [AnyFolder], progress: (@Sendable (Progress) -> Void)?) async throws -> RebuildResult {
        let clock = ContinuousClock()
        let started = clock.now
        for f in folders { try checkpoints.removeSnapshots(f.name, version: f.schemaVersion) }
        let end = try await store.lastPosition()
        let checkpoints = self.checkpoints
        // Each thread saves its projections as soon as they are folded, so one thread's checkpoints are written
        // while the other still folds.
        let finish: @Sendable (AnyFolder) throws -> Void = { f in
            let elapsed = clock.now - started
            let now = Timestamp.now()
            let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            f.position = end
            try checkpoints.save(
                Checkpoint(
                    name: f.name, schemaVersion: f.schemaVersion, position: end, eventsApplied: f.applied, rebuiltAt: now,
                    rebuildMicroseconds: micros, savedAt: now, state: f.encodedState()))
            // Blue/green: the older versions served until now; the new one has caught up.
            // Only older ones: a newer build's state is not this build's to remove.
            for v in try checkpoints.versions(of: f.name) where v < f.schemaVersion { try checkpoints.remove(f.name, version: v) }
        }
        var decoded = 0
        if let end {
            decoded = try await fold(folders, after: nil, through: end, snapshots: true, threads: foldThreads, finish: finish) { position in
                progress?(Progress(eventsRead: Int(position) + 1, position: position, lastPosition: end, elapsed: clock.now - started))
            }
        } else {
            for f in folders { try finish(f) }
        }
        return RebuildResult(
            projections: folders.map(\.name), eventsRead: end.map { Int($0) + 1 } ?? 0, eventsDecoded: decoded, lastPosition: end,
            elapsed: clock.now - started)
    }

    /// Folds, writing a snapshot of each folder whenever the fold crosses a multiple of ``snapshotInterval``, on
    /// up to `threads` threads, each reading the log for its share of the folders.
    ///
    /// - Parameters:
    ///   - finish: Called on a folder's thread once it has folded through `end`.
    ///   - afterPage: Called (one call at a time) with the position every thread has passed.
    /// - Returns: The events read, summed over the threads.
    @discardableResult
    private func fold(
        _ folders: [AnyFolder], after start: UInt64?, through end: UInt64, snapshots: Bool, threads: Int = 1,
        finish: (@Sendable (AnyFolder) throws -> Void)? = nil, afterPage: (@Sendable (UInt64) -> Void)? = nil
    ) async throws -> Int {
        let lanes = Self.lanes(folders, count: threads)
        if lanes.count == 1 {
            let read = try await foldLane(lanes[0].folders, after: start, through: end, snapshots: snapshots) { position in afterPage?(position) }
            if let finish { for f in folders { try finish(f) } }
            return read
        }
        // The slowest thread's position is how far the rebuild has come. A thread that meets a failing event does not
        // stop the others at once: one behind it may still fail on an earlier event, which is the one to report
        // (as a single thread would). Each stops once it has passed the earliest failure known.
        let shared = LaneState(count: lanes.count)
        let outcomes = await withTaskGroup(of: Result<Int, any Error>.self) { group in
            for (index, lane) in lanes.enumerated() {
                group.addTask {
                    do {
                        let read = try await self.foldLane(lane.folders, after: start, through: end, snapshots: snapshots) { position in
                            try shared.state.withLock { state in
                                if let failed = state.failedAt, position >= failed { throw CancellationError() }
                                state.positions[index] = position
                                if let afterPage, state.positions.allSatisfy({ $0 != nil }) { afterPage(state.positions.map { $0! }.min()!) }
                            }
                        }
                        if let finish { for f in lane.folders { try finish(f) } }
                        return .success(read)
                    } catch let failure as ProjectionFailure {
                        shared.state.withLock { state in state.failedAt = min(state.failedAt ?? .max, failure.position) }
                        return .failure(failure)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var outcomes: [Result<Int, any Error>] = []
            for await outcome in group {
                // Any other error (the store, a checkpoint) stops every thread: the rebuild fails either way.
                if case .failure(let error) = outcome, !(error is ProjectionFailure), !(error is CancellationError) { group.cancelAll() }
                outcomes.append(outcome)
            }
            return outcomes
        }
        var read = 0
        var failures: [any Error] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let n): read += n
            case .failure(let error): failures.append(error)
            }
        }
        // The earliest event a projection failed on is the one to report, whatever thread met it first, and of two
        // projections failing on one event the first in the order given (what one thread would have met first).
        let order = Dictionary(folders.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        if let first = failures.compactMap({ $0 as? ProjectionFailure }).min(by: {
            ($0.position, order[$0.projection] ?? .max) < ($1.position, order[$1.projection] ?? .max)
        }) {
            throw first
        }
        if let other = failures.first(where: { !($0 is CancellationError) }) ?? failures.first { throw other }
        return read
    }

    /// Folders spread over threads, heaviest first onto the lightest thread.
    static func lanes(_ folders: [AnyFolder], count: Int) -> [Lane] {
        let n = max(1, min(count, folders.count))
        var lanes = [Lane](repeating: Lane(folders: [], cost: 0), count: n)
        for f in folders.sorted(by: { $0.foldCost > $1.foldCost }) {
            // Ties (projections stating no cost) go to the thread with fewer projections.
            let lightest = lanes.indices.min { (lanes[$0].cost, lanes[$0].folders.count) < (lanes[$1].cost, lanes[$1].folders.count) }!
            lanes[lightest].folders.append(f)
            lanes[lightest].cost += f.foldCost
        }
        // Keep the catalog's order inside each thread, so that what is written happens in a stable order.
        for i in lanes.indices { lanes[i].folders.sort { a, b in folders.firstIndex { $0 === a }! < folders.firstIndex { $0 === b }! } }
        return lanes.filter { !$0.folders.isEmpty }
    }

    /// Where each thread of a fold has come to, and the earliest position a projection failed on so far.
    final class LaneState: Sendable {
        struct State {
            var positions: [UInt64?]
            var failedAt: UInt64?
        }

        let state: Mutex<State>

        init(count: Int) {
            state = Mutex(State(positions: [UInt64?](repeating: nil, count: count), failedAt: nil))
        }
    }

    /// The folders one thread folds; each folder belongs to exactly one thread while the fold runs.
    struct Lane: @unchecked Sendable {
        var folders: [AnyFolder]
        var cost: Int
    }

    /// One thread's fold: one pass over the log for its folders, with their snapshots.
    private func foldLane(
        _ folders: [AnyFolder], after start: UInt64?, through end: UInt64, snapshots: Bool, afterPage: (UInt64) throws -> Void
    ) async throws -> Int {
        let pass = FoldPass(store: store, catalog: catalog, folders: folders)
        let checkpoints = self.checkpoints
        let base = snapshotInterval
        let limit = maxSnapshotBytes
        // Per folder: where its last snapshot was, and how big its state was then.
        var last: [ObjectIdentifier: (position: UInt64, bytes: Int)] = [:]
        // Spacing counts from the newest snapshot there is, so catch-ups shorter than the spacing still take one
        // once enough of them have passed.
        for f in folders {
            let newest = try checkpoints.snapshotPositions(f.name, version: f.schemaVersion).last
            last[ObjectIdentifier(f)] = (newest ?? 0, 0)
        }
        return try await pass.run(after: start, through: end) { position, _ in
            try Task.checkCancellation()
            if snapshots {
                for f in folders {
                    let previous = last[ObjectIdentifier(f)]!
                    guard previous.bytes <= limit, position - previous.position >= max(base, UInt64(previous.bytes / 4)) else { continue }
                    let bytes = f.encodedState()
                    last[ObjectIdentifier(f)] = (position, bytes.count)
                    if bytes.count <= limit {
                        try checkpoints.saveSnapshot(f.name, version: f.schemaVersion, position: position, state: bytes)
                    }
                }
            }
            try afterPage(position)
        }
    }

    // MARK: Time travel

    /// The projection's state as it was when the log ended at `position`: from the nearest snapshot (or stored
    /// state) at or before it, folding only the events after it.
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - position: The last position to include.
    /// - Returns: The state.
    /// - Throws: ``ProjectionFailure``, store and checkpoint errors.
    public func state<P: Projection>(_ type: P.Type, atPosition position: UInt64) async throws -> P.State {
        guard let last = try await store.lastPosition() else { return P.State() }
        let target = min(position, last)
        var base: (position: UInt64, bytes: [UInt8])?
        // Snapshots are derived data: one that is damaged, or removed by a rebuild running meanwhile, is passed over
        // for the next one back (or the start), never trusted and never fatal.
        for snap in try checkpoints.snapshotPositions(P.name, version: P.schemaVersion).reversed() where snap <= target {
            if let bytes = try? checkpoints.loadSnapshot(P.name, version: P.schemaVersion, position: snap) {
                base = (snap, bytes)
                break
            }
        }
        // The checkpoint's position comes from its header; the whole file (a large state) is read only when it is
        // the better start.
        if let h = try checkpoints.header(P.name, version: P.schemaVersion), Self.fits(h, last), let p = h.position, p <= target,
            p > (base?.position ?? 0) || base == nil, let c = try checkpoints.load(P.name, version: P.schemaVersion), c.position == p
        {
            base = (p, c.state)
        }
        let folder = try base.map { try Folder(P.self, bytes: $0.bytes, position: $0.position, applied: 0) } ?? Folder(P.self)
        if folder.position.map({ $0 < target }) ?? true {
            try await fold([folder], after: folder.position, through: target, snapshots: false)
        }
        return folder.state
    }

    /// The state folded from only some streams' events up to a position: what an entity's view (one order, one
    /// pet) was then, read through the stream index instead of the whole log.
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - streams: The streams whose events decide the answer.
    ///   - position: The last position to include.
    /// - Returns: The state of those streams' events.
    /// - Throws: ``ProjectionFailure``, store errors.
    public func state<P: Projection>(_ type: P.Type, streams: [StreamID], atPosition position: UInt64) async throws -> P.State {
        var recorded: [RecordedEvent] = []
        for stream in Set(streams) {
            try await store.forEachPage(.stream(stream)) { page in
                for e in page where e.position <= position && P.eventTypes.contains(e.type) { recorded.append(e) }
                return page.last.map { $0.position <= position } ?? false
            }
        }
        recorded.sort { $0.position < $1.position }
        var state = P.State()
        for e in recorded {
            let event: any DomainEvent
            do {
                guard let decoded = try catalog.decode(type: e.type, data: e.data) else { throw ProjectionError(FoldPass.notDomainEncoded) }
                event = decoded
            } catch {
                throw ProjectionFailure(projection: P.name, position: e.position, stream: e.stream.rawValue, type: e.type, message: "\(error)")
            }
            do {
                try P.apply(&state, ProjectedEvent(position: e.position, stream: e.stream, recordedAt: e.recordedAt, metadata: e.metadata, event: event))
            } catch {
                throw ProjectionFailure(projection: P.name, position: e.position, stream: e.stream.rawValue, type: e.type, message: error.message)
            }
        }
        return state
    }

    /// The last position recorded at or before a time (`nil` when the log was empty then).
    public func position(atOrBefore time: Timestamp) async throws -> UInt64? {
        try await store.lastPosition(atOrBefore: time)
    }

    // MARK: Audit

    /// One difference between the live state and a fresh rebuild.
    public struct Difference: Sendable, Hashable {
        /// The key path (`products[litter].onHand`).
        public var key: String
        /// The live value, `nil` when the key is missing there.
        public var live: String?
        /// The rebuilt value, `nil` when the key is missing there.
        public var rebuilt: String?

        public init(key: String, live: String?, rebuilt: String?) {
            self.key = key
            self.live = live
            self.rebuilt = rebuilt
        }
    }

    /// What an audit found.
    public struct Audit: Sendable {
        public var projection: String
        public var position: UInt64?
        public var keysCompared: Int
        public var differences: [Difference]
    }

    /// Compares the live state (caught up) with a rebuild from scratch to the same position, key by key.
    ///
    /// - Parameter type: The projection.
    /// - Returns: The differences (none when the live state is right).
    /// - Throws: ``ProjectionFailure``, store and checkpoint errors.
    public func audit<P: Projection>(_ type: P.Type) async throws -> Audit {
        let live = try await load(P.self, catchUp: true)
        let fresh = Folder(P.self)
        if let p = live.position { try await fold([fresh], after: nil, through: p, snapshots: false) }
        let a = StateFlattener.flatten(JSONFieldWriter.json(live.state))
        let b = StateFlattener.flatten(fresh.json())
        var differences: [Difference] = []
        for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
            differences.append(Difference(key: key, live: a[key], rebuilt: b[key]))
        }
        return Audit(projection: P.name, position: live.position, keysCompared: Set(a.keys).union(b.keys).count, differences: differences)
    }

    // MARK: Status

    /// One projection's standing.
    public struct Status: Sendable {
        public var name: String
        public var schemaVersion: Int
        /// The stored state's position, `nil` when it has none (or an empty log).
        public var position: UInt64?
        /// Whether a checkpoint of the current schema version exists.
        public var built: Bool
        /// Events committed after the stored position.
        public var lag: UInt64
        /// Older schema versions still stored (served to older builds until the new one catches up).
        public var staleVersions: [Int]
        public var rebuiltAt: Timestamp?
        public var rebuildMicroseconds: Int64?
        public var eventsApplied: Int64
        public var snapshots: Int
    }

    /// The standing of projections.
    public func status(_ types: [any Projection.Type]) async throws -> [Status] {
        let last = try await store.lastPosition()
        var out: [Status] = []
        for t in types {
            let c = try checkpoints.header(t.name, version: t.schemaVersion)
            let lag: UInt64
            switch (last, c?.position) {
            case (nil, _): lag = 0
            case (let l?, nil): lag = l + 1
            case (let l?, let p?): lag = l > p ? l - p : 0
            }
            out.append(
                Status(
                    name: t.name, schemaVersion: t.schemaVersion, position: c?.position, built: c != nil, lag: c == nil ? (last.map { $0 + 1 } ?? 0) : lag,
                    staleVersions: try checkpoints.versions(of: t.name).filter { $0 != t.schemaVersion },
                    rebuiltAt: c?.rebuiltAt, rebuildMicroseconds: c?.rebuildMicroseconds, eventsApplied: c?.eventsApplied ?? 0,
                    snapshots: try checkpoints.snapshotPositions(t.name, version: t.schemaVersion).count))
        }
        return out
    }
}
