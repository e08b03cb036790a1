import EventLog
import Events
import PawtrailJSON
public import Projections
import Synchronization
import Dispatch

extension ProjectionEngine {
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
        /// Events decoded, summed over the threads.
        public var eventsDecoded: Int = 0
        public var lastPosition: UInt64?
        public var elapsed: Duration
        /// Why a state could not be saved, when one could not.
        public var saveError: String?
    }

    /// A folder for a projection: rows by key for a ``KeyedProjection``, else one whole state.
    func folder(_ type: any Projection.Type) -> AnyFolder {
        if let keyed = type as? any KeyedProjection.Type { return keyedFolder(keyed) }
        return wholeFolder(type)
    }

    private func keyedFolder<K: KeyedProjection>(_ type: K.Type) -> AnyFolder { KeyedFolder(K.self, source: nil, recording: true) }
    private func wholeFolder<P: Projection>(_ type: P.Type) -> AnyFolder {
        WholeFolder(P.self, snapshotInterval: snapshotInterval, maxSnapshotBytes: maxSnapshotBytes)
    }

    // MARK: Rebuild

    /// Rebuilds projections from scratch, replacing their stored states: spread over ``foldThreads`` threads by their
    /// fold cost, each thread making one pass over the log for its projections.
    ///
    /// - Parameters:
    ///   - types: The projections.
    ///   - progress: Called after each page read.
    /// - Returns: What was read and how long it took.
    /// - Throws: ``EventStoreError/storeFailure(_:)`` when another process is rebuilding one of them, or the store
    ///   cannot be written; ``ProjectionFailure``; store and state-store errors.
    public func rebuild(_ types: [any Projection.Type], progress: (@Sendable (Progress) -> Void)? = nil) async throws -> RebuildResult {
        var locks: [any ProjectionLock] = []
        defer { for l in locks { l.unlock() } }
        for t in types {
            guard let lock = try states.tryLock(t.name) else {
                throw EventStoreError.storeFailure(
                    "projection '\(t.name)' is being rebuilt or saved by another process, or the store cannot be written here; try again")
            }
            locks.append(lock)
        }
        let result = try await rebuildLocked(types.map { folder($0) }, progress: progress, discardingStates: true)
        if let error = result.saveError { throw EventStoreError.storeFailure("a rebuilt read model could not be saved: \(error)") }
        return result
    }

    /// Rebuilds under the projections' locks; a failure to store a state is reported in the result, not thrown (a
    /// read that rebuilt still answers from memory).
    ///
    /// - Parameter discardingStates: Whether the caller has no use for the folded states once stored: each is then
    ///   freed on a queue of its own as soon as it is stored. Freeing a state of millions of records takes a good
    ///   part of a second; freed on the thread that folded it, a thread still folding its other projections waits
    ///   for it, and the last thread's states would be freed after everything is stored, before the rebuild returns.
    func rebuildLocked(_ folders: [AnyFolder], progress: (@Sendable (Progress) -> Void)?, discardingStates: Bool = false) async throws -> RebuildResult {
        let clock = ContinuousClock()
        let started = clock.now
        let end = try await store.lastPosition()
        let endCommit = try await commit(at: end)
        let states = self.states
        let freeing = discardingStates ? DispatchQueue(label: "pawtrail.rebuild.free-states") : nil
        // Each projection's writer, which takes its versions as they pile up and stores them at the end.
        let writers = Mutex<[ObjectIdentifier: any StateWriter]>([:])
        let saveErrors = Mutex<[String]>([])
        let writer: @Sendable (AnyFolder) -> (any StateWriter)? = { f in
            writers.withLock { w in
                if let existing = w[ObjectIdentifier(f)] { return existing }
                do {
                    let made = try states.writer(f.name, version: f.schemaVersion, replacing: true)
                    w[ObjectIdentifier(f)] = made
                    return made
                } catch {
                    saveErrors.withLock { $0.append("\(f.name): \(error)") }
                    return nil
                }
            }
        }
        // Hands a folder's versions to its writer, which gives back memory to fill again.
        let hand: @Sendable (AnyFolder) -> Void = { f in
            f.handVersions { versions in
                guard !versions.isEmpty, let w = writer(f) else { return }
                do { try w.add(recycling: &versions) } catch { saveErrors.withLock { $0.append("\(f.name): \(error)") } }
            }
        }
        // Each thread stores its projections as soon as they are folded, so one thread's states are written while
        // the other still folds.
        let finish: @Sendable (AnyFolder) throws -> Void = { f in
            let elapsed = clock.now - started
            let now = Timestamp.now()
            let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
            f.position = end
            var closing = f.closingVersions(at: end ?? 0, keep: false)
            // Taken rather than handed: the folder is done, so no memory comes back to it.
            var rest = f.takeVersions()
            guard let w = writer(f) else { return }
            do {
                if !rest.isEmpty { try w.add(recycling: &rest) }
                if end != nil { try w.add(recycling: &closing) }
                try w.finish(
                    CheckpointInfo(
                        name: f.name, schemaVersion: f.schemaVersion, position: end, eventsApplied: f.applied, rebuiltAt: now,
                        rebuildMicroseconds: micros, savedAt: now, eventID: endCommit.id, eventRecordedAt: endCommit.recordedAt))
                // Blue/green: the older versions served until now; the new one has caught up. Only older ones: a newer
                // build's state is not this build's to remove.
                for v in try states.versions(of: f.name) where v < f.schemaVersion { try states.remove(f.name, version: v) }
            } catch {
                saveErrors.withLock { $0.append("\(f.name): \(error)") }
            }
            if let freeing {
                let discarded = f.discardState()
                freeing.async { discarded.free() }
            }
        }
        var decoded = 0
        if let end {
            let spill = spillBytes
            decoded = try await fold(folders, after: nil, through: end, threads: foldThreads, finish: finish, afterFolderPage: { f in
                if f.pendingBytes >= spill { hand(f) }
            }) { position in
                progress?(Progress(eventsRead: Int(position) + 1, position: position, lastPosition: end, elapsed: clock.now - started))
            }
        } else {
            for f in folders { try finish(f) }
        }
        let errors = saveErrors.withLock { $0 }
        return RebuildResult(
            projections: folders.map(\.name), eventsRead: end.map { Int($0) + 1 } ?? 0, eventsDecoded: decoded, lastPosition: end,
            elapsed: clock.now - started, saveError: errors.isEmpty ? nil : errors.joined(separator: "; "))
    }

    /// Folds on up to `threads` threads, each reading the log for its share of the folders.
    ///
    /// - Parameters:
    ///   - finish: Called on a folder's thread once it has folded through `end`.
    ///   - afterFolderPage: Called on a folder's thread after each page (a rebuild hands over versions there).
    ///   - afterPage: Called (one call at a time) with the position every thread has passed.
    /// - Returns: The events read, summed over the threads.
    @discardableResult
    func fold(
        _ folders: [AnyFolder], after start: UInt64?, through end: UInt64, threads: Int = 1,
        finish: (@Sendable (AnyFolder) throws -> Void)? = nil, afterFolderPage: (@Sendable (AnyFolder) -> Void)? = nil,
        afterPage: (@Sendable (UInt64) -> Void)? = nil
    ) async throws -> Int {
        let lanes = Self.lanes(folders, count: threads)
        if lanes.count == 1 {
            let read = try await foldLane(lanes[0].folders, after: start, through: end) { position in
                if let afterFolderPage { for f in lanes[0].folders { afterFolderPage(f) } }
                afterPage?(position)
            }
            if let finish { for f in folders { try finish(f) } }
            return read
        }
        // The slowest thread's position is how far the rebuild has come. A thread that meets a failing event does not
        // stop the others at once: one behind it may still fail on an earlier event, which is the one to report
        // (as a single thread would). Each stops once it has passed the earliest failure known.
        let shared = LaneState(count: lanes.count)
        // Storing a folded state takes a second or more for the large ones: a thread done with its own fold stores
        // the states of the threads still folding as they finish, rather than idling while the last thread stores
        // all of its states one after the other.
        let finishing = FinishQueue(folding: lanes.count)
        let outcomes = await withTaskGroup(of: Result<Int, any Error>.self) { group in
            for (index, lane) in lanes.enumerated() {
                group.addTask {
                    do {
                        let read: Int
                        do {
                            defer { finishing.laneFolded() }
                            read = try await self.foldLane(lane.folders, after: start, through: end) { position in
                                if let afterFolderPage { for f in lane.folders { afterFolderPage(f) } }
                                try shared.state.withLock { state in
                                    if let failed = state.failedAt, position >= failed { throw CancellationError() }
                                    state.positions[index] = position
                                    if let afterPage, state.positions.allSatisfy({ $0 != nil }) { afterPage(state.positions.map { $0! }.min()!) }
                                }
                            }
                            if finish != nil { finishing.add(lane.folders) }
                        }
                        if let finish {
                            while let f = try await finishing.next() { try finish(f) }
                        }
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
                // Any other error (the store, a stored state) stops every thread: the rebuild fails either way.
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

    /// One thread's fold: one pass over the log for its folders.
    private func foldLane(
        _ folders: [AnyFolder], after start: UInt64?, through end: UInt64, afterPage: (UInt64) throws -> Void
    ) async throws -> Int {
        let pass = FoldPass(store: store, catalog: catalog, folders: folders)
        return try await pass.run(after: start, through: end) { position, _ in
            try Task.checkCancellation()
            try afterPage(position)
        }
    }
}
