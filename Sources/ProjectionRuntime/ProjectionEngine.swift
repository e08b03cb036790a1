public import EventLog
import Foundation
public import Events
#if canImport(Glibc)
import Glibc
#endif
import PawtrailJSON
public import Projections
import Synchronization

/// Runs the read models over a store: keeps each projection's state and position in a ``ProjectionStateStore``,
/// catches up with the log before a read, rebuilds from scratch (blue/green on a schema change), and reads a state as
/// of any past moment.
///
/// A projection keeps its state one of two ways. A ``KeyedProjection`` keeps rows by key, each version of the rows its
/// views read (``TableHistory/exact``): a view of one entity reads that entity's rows only, live or as of any
/// position, without folding. Any other projection keeps one whole state (a small one) with snapshots, one every
/// ``snapshotInterval`` positions or more, and time travel folds the events after the nearest one.
///
/// Saving a catch-up is an optimisation: when the state cannot be saved (another process is saving it, the store is
/// read-only, the disk is full), the read answers from what it folded in memory, and says why in
/// ``Loaded/saveError``.
public struct ProjectionEngine: Sendable {
    /// The log.
    public let store: any EventStore
    /// Where states live.
    public let states: any ProjectionStateStore
    /// The fewest positions between two snapshots of a whole state; the spacing grows with the state's size (one
    /// position per 4 bytes), so snapshots cost a rebuild at most about 4 bytes per event read.
    public var snapshotInterval: UInt64
    /// Whole states larger than this are not snapshotted (time travel folds from an older one, or the start).
    public var maxSnapshotBytes: Int = 32 << 20
    /// How events are decoded.
    public var catalog: EventCatalog
    /// How many threads a rebuild of several projections folds on (see ``lanes(_:count:)``).
    public var foldThreads: Int = ProjectionEngine.defaultFoldThreads
    /// Bytes of row versions a rebuild's folder holds before it hands them to the store: as many as the file store
    /// writes to a run, so that a hand-over is written as it is, without being copied onto others first.
    public var spillBytes: Int = 96 << 20

    /// One thread per online core, at most four.
    public static var defaultFoldThreads: Int { max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Creates an engine.
    public init(store: any EventStore, states: any ProjectionStateStore, snapshotInterval: UInt64 = 50_000, catalog: EventCatalog = .domain) {
        self.store = store
        self.states = states
        self.snapshotInterval = snapshotInterval
        self.catalog = catalog
    }

    /// A projection's state as loaded.
    public struct Loaded<State: Sendable>: Sendable {
        /// The state (a keyed state reads the rows it is asked for from the store).
        public var state: State
        /// The last position it reflects, `nil` for none.
        public var position: UInt64?
        /// Events it caught up with in this call.
        public var caughtUp: Int
        /// Whether it was (re)built from scratch in this call.
        public var rebuilt: Bool
        /// Why what was folded could not be saved, when it could not (it was read from memory).
        public var saveError: String?
        /// The stored rows a keyed state reads through as it is used.
        var rows: (any RowSource)?
        /// What was wrong with the stored state, when it was damaged and rebuilt (or folded in memory) instead.
        public var repaired: String?
        /// Why the stored state did not fit this log (its checkpoint names a position the log does not have, or
        /// another event there), when it was rebuilt (or folded in memory) for that.
        public var diverged: String?

        /// A loaded state; `rows` is what a keyed state reads through.
        public init(state: State, position: UInt64?, caughtUp: Int, rebuilt: Bool, saveError: String? = nil, rows: (any RowSource)? = nil) {
            self.state = state
            self.position = position
            self.caughtUp = caughtUp
            self.rebuilt = rebuilt
            self.saveError = saveError
            self.rows = rows
        }

        /// Fails when a stored row the state read since it was loaded was damaged: what was computed from it (a
        /// view's output) is wrong and must not be shown. Call it after using the state.
        ///
        /// - Throws: The first read failure, ``EventStoreError/corrupted(location:offset:reason:)`` or an I/O error.
        public func checkReads() throws {
            if let failure = readFailure { throw failure }
        }

        /// The first failure to read a stored row since the state was loaded (see ``checkReads()``).
        public var readFailure: (any Error)? { rows?.failure }
    }

    // MARK: Reading with catch-up

    /// The projection's state, caught up with the log unless `catchUp` is false.
    ///
    /// A missing state of the current schema version means a first use or a schema change: the projection is
    /// rebuilt, and older versions' states are removed only once the new one is stored (processes of the old build
    /// keep reading theirs until then). When the state cannot be saved here (another process holds the projection's
    /// lock, or the store is read-only), it is folded in memory instead.
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - catchUp: Whether to fold the events committed since the stored state.
    /// - Returns: The state and its position.
    /// - Throws: ``ProjectionFailure``, store and state-store errors.
    public func load<P: Projection>(_ type: P.Type, catchUp: Bool = true) async throws -> Loaded<P.State> {
        do {
            return try await load(P.self, catchUp: catchUp, ignoringStored: false)
        } catch let error as EventStoreError where catchUp && Self.isDamage(error) {
            // A state is derived data: a damaged one is rebuilt from the log (or folded in memory), never served.
            var loaded = try await load(P.self, catchUp: true, ignoringStored: true)
            loaded.repaired = "\(error)"
            return loaded
        }
    }

    /// The projection's state folded from the log anew, passing over what is stored (a state found damaged while it
    /// was read): stored in its place when this process can write it, else held in memory.
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - damage: What was found wrong, kept in ``Loaded/repaired``.
    /// - Returns: The state.
    /// - Throws: ``ProjectionFailure``, store and state-store errors.
    public func repair<P: Projection>(_ type: P.Type, damage: any Error) async throws -> Loaded<P.State> {
        var loaded = try await load(P.self, catchUp: true, ignoringStored: true)
        loaded.repaired = "\(damage)"
        return loaded
    }

    private func load<P: Projection>(_ type: P.Type, catchUp: Bool, ignoringStored: Bool) async throws -> Loaded<P.State> {
        if let keyed = P.self as? any KeyedProjection.Type {
            return try await loadedKeyed(keyed, catchUp: catchUp, ignoringStored: ignoringStored) as! Loaded<P.State>
        }
        return try await loadWhole(P.self, catchUp: catchUp, ignoringStored: ignoringStored)
    }

    /// Whether an error says a stored state is damaged (rather than unreadable for now).
    static func isDamage(_ error: EventStoreError) -> Bool {
        error.code == .corrupted
    }

    /// Whether a projection can be read here without folding the log from its start on every read: its state of the
    /// current schema version is stored, or this process can store it (no other process holds its lock, and the
    /// store's states can be written).
    ///
    /// - Parameter type: The projection.
    /// - Returns: Whether a ``load(_:catchUp:)`` folds at most the events since a stored state, after its first.
    /// - Throws: The state store's errors.
    public func keepsState<P: Projection>(of type: P.Type) throws -> Bool {
        // The stored state first: on a server the lock and its release are two round trips, the state's checkpoint
        // one; a small state's files open about as fast as its lock.
        if case .some(.some) = try? stored(P.name, P.schemaVersion) { return true }
        if let lock = try? states.tryLock(P.name) {
            lock.unlock()
            return true
        }
        return false
    }

    /// The stored state of a projection's current schema version, `nil` when there is none.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` when it is damaged (``load(_:catchUp:)`` then
    ///   rebuilds it), an I/O error when it cannot be read.
    func stored(_ name: String, _ version: Int) throws -> (any StoredProjectionState)? {
        try states.open(name, version: version)
    }

    /// Stores a catch-up's versions under the lock; the error's description when that fails (it is not fatal).
    func save(_ name: String, _ version: Int, _ versions: RowVersions, _ checkpoint: CheckpointInfo) -> String? {
        do {
            let writer = try states.writer(name, version: version, replacing: false)
            try writer.add(versions)
            try writer.finish(checkpoint)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Where a load starts: the stored state it folds on from (`nil` when there is none of the schema version, or
    /// it does not belong to this log: `diverged` says why), and the projection's lock when the load may write.
    ///
    /// A state stored through the log's end that belongs to this log is taken without the lock: nothing is written,
    /// and on a server the lock and its release are two round trips of every view. Otherwise a writer takes the lock
    /// before reading the state, so that it never saves a state older than one another process saved meanwhile.
    private func start(_ name: String, _ version: Int, last: UInt64?, catchUp: Bool, ignoringStored: Bool) async throws
        -> (stored: (any StoredProjectionState)?, lock: (any ProjectionLock)?, diverged: String?)
    {
        var diverged: String?
        if !ignoringStored, let current = try stored(name, version), current.checkpoint.position == last,
            try await fits(current.checkpoint, last, &diverged)
        {
            return (current, nil, nil)
        }
        let lock = catchUp ? try states.tryLock(name) : nil
        diverged = nil
        guard !ignoringStored, let found = try stored(name, version) else { return (nil, lock, nil) }
        return try await fits(found.checkpoint, last, &diverged) ? (found, lock, nil) : (nil, lock, diverged)
    }

    private func loadWhole<P: Projection>(_ type: P.Type, catchUp: Bool, ignoringStored: Bool) async throws -> Loaded<P.State> {
        let last = try await store.lastPosition()
        let (found, lock, diverged) = try await start(P.name, P.schemaVersion, last: last, catchUp: catchUp, ignoringStored: ignoringStored)
        defer { lock?.unlock() }
        if let stored = found, let row = try stored.version(of: wholeStateKey, asOf: nil), let bytes = row.value {
            let c = stored.checkpoint
            let behind = catchUp && last.map { end in c.position.map { end > $0 } ?? true } == true
            // The newest snapshot matters only to a fold, which takes the next one after it.
            let folder = try WholeFolder(
                P.self, bytes: bytes, position: c.position, applied: c.eventsApplied, lastSnapshot: behind ? try stored.newestKept(wholeStateKey) : nil,
                snapshotInterval: snapshotInterval, maxSnapshotBytes: maxSnapshotBytes)
            guard behind, let end = last else {
                return Loaded(state: folder.state, position: c.position, caughtUp: 0, rebuilt: false)
            }
            let read = try await fold([folder], after: c.position, through: end)
            var saveError = lock == nil ? Self.notSaved : nil
            if lock != nil {
                var next = c
                next.position = end
                (next.eventID, next.eventRecordedAt) = try await commit(at: end)
                next.eventsApplied = folder.applied
                next.savedAt = .now()
                var versions = folder.takeVersions()
                versions.append(contentsOf: folder.closingVersions(at: end, keep: false))
                saveError = save(P.name, P.schemaVersion, versions, next)
            }
            return Loaded(state: folder.state, position: end, caughtUp: read, rebuilt: false, saveError: saveError)
        }
        if !catchUp { throw Self.notBuilt(P.name, P.schemaVersion) }
        let folder = WholeFolder(P.self, snapshotInterval: snapshotInterval, maxSnapshotBytes: maxSnapshotBytes)
        guard lock != nil else {
            if let last { try await fold([folder], after: nil, through: last) }
            var loaded = Loaded(state: folder.state, position: last, caughtUp: 0, rebuilt: true, saveError: Self.notSaved)
            loaded.diverged = diverged
            return loaded
        }
        let saveError = try await rebuildLocked([folder], progress: nil).saveError
        var loaded = Loaded(state: folder.state, position: folder.position, caughtUp: 0, rebuilt: true, saveError: saveError)
        loaded.diverged = diverged
        return loaded
    }

    /// ``loadKeyed(_:catchUp:)``'s state, for a caller that knows the projection only as `any KeyedProjection.Type`.
    private func loadedKeyed<K: KeyedProjection>(_ type: K.Type, catchUp: Bool, ignoringStored: Bool) async throws -> Any {
        try await loadKeyed(K.self, catchUp: catchUp, ignoringStored: ignoringStored).loaded
    }

    private func keyedStateErased<K: KeyedProjection>(_ type: K.Type, atPosition position: UInt64) async throws -> Any {
        try await keyedState(K.self, atPosition: position)
    }

    /// A keyed projection caught up: its state, the stored state it reads through, and the versions it could not save.
    struct KeyedCatchUp<State: Sendable> {
        var loaded: Loaded<State>
        var unsaved: [RowVersion]
    }

    func loadKeyed<K: KeyedProjection>(_ type: K.Type, catchUp: Bool, ignoringStored: Bool = false) async throws -> KeyedCatchUp<K.State> {
        let last = try await store.lastPosition()
        let (found, lock, diverged) = try await start(K.name, K.schemaVersion, last: last, catchUp: catchUp, ignoringStored: ignoringStored)
        defer { lock?.unlock() }
        if let stored = found {
            let c = stored.checkpoint
            let folder = KeyedFolder(K.self, source: StateRowSource(stored: stored, asOf: nil), position: c.position, applied: c.eventsApplied, recording: true)
            guard catchUp, let end = last, c.position.map({ end > $0 }) ?? true else {
                return KeyedCatchUp(loaded: Loaded(state: folder.state, position: c.position, caughtUp: 0, rebuilt: false, rows: folder.source), unsaved: [])
            }
            let read = try await fold([folder], after: c.position, through: end)
            if let failure = folder.readFailure { throw failure }
            var versions = folder.takeVersions()
            versions.append(contentsOf: folder.closingVersions(at: end, keep: false))
            var saveError = lock == nil ? Self.notSaved : nil
            if lock != nil {
                var next = c
                next.position = end
                (next.eventID, next.eventRecordedAt) = try await commit(at: end)
                next.eventsApplied = folder.applied
                next.savedAt = .now()
                saveError = save(K.name, K.schemaVersion, versions, next)
            }
            return KeyedCatchUp(
                loaded: Loaded(state: folder.state, position: end, caughtUp: read, rebuilt: false, saveError: saveError, rows: folder.source),
                unsaved: saveError == nil ? [] : versions.versions)
        }
        if !catchUp { throw Self.notBuilt(K.name, K.schemaVersion) }
        let folder = KeyedFolder(K.self, source: nil, recording: lock != nil)
        guard lock != nil else {
            if let last { try await fold([folder], after: nil, through: last) }
            var loaded = Loaded(state: folder.state, position: last, caughtUp: 0, rebuilt: true, saveError: Self.notSaved)
            loaded.diverged = diverged
            return KeyedCatchUp(loaded: loaded, unsaved: [])
        }
        let saveError = try await rebuildLocked([folder], progress: nil).saveError
        var loaded = Loaded(state: folder.state, position: folder.position, caughtUp: 0, rebuilt: true, saveError: saveError)
        loaded.diverged = diverged
        return KeyedCatchUp(loaded: loaded, unsaved: [])
    }

    static let notSaved = "another process is saving this read model, or the store cannot be written here"

    static func notBuilt(_ name: String, _ version: Int) -> EventStoreError {
        .storeFailure("projection '\(name)' has no stored state of schema version \(version) yet; read it without --no-catch-up to build it")
    }

    // MARK: Time travel

    /// The projection's state as it was when the log ended at `position`. A keyed projection reads its rows as of the
    /// position (after catching up, so that the stored rows reach it); a whole state folds from the nearest snapshot
    /// at or before it.
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - position: The last position to include.
    /// - Returns: The state.
    /// - Throws: ``ProjectionFailure``, store and state-store errors.
    public func state<P: Projection>(_ type: P.Type, atPosition position: UInt64) async throws -> P.State {
        let loaded = try await load(P.self, atPosition: position)
        try loaded.checkReads()
        return loaded.state
    }

    /// The projection's state as it was when the log ended at `position`, with what it reads through (see
    /// ``Loaded/checkReads()``, for a keyed state read as it is used).
    ///
    /// - Parameters:
    ///   - type: The projection.
    ///   - position: The last position to include.
    /// - Returns: The state, at `position` or the log's end if sooner.
    /// - Throws: ``ProjectionFailure``, store and state-store errors.
    public func load<P: Projection>(_ type: P.Type, atPosition position: UInt64) async throws -> Loaded<P.State> {
        if let keyed = P.self as? any KeyedProjection.Type {
            return try await keyedStateErased(keyed, atPosition: position) as! Loaded<P.State>
        }
        return try await wholeState(P.self, atPosition: position)
    }

    private func keyedState<K: KeyedProjection>(_ type: K.Type, atPosition position: UInt64) async throws -> Loaded<K.State> {
        guard let last = try await store.lastPosition() else { return Loaded(state: K.State(), position: nil, caughtUp: 0, rebuilt: false) }
        let target = min(position, last)
        let caughtUp: KeyedCatchUp<K.State>
        do {
            caughtUp = try await loadKeyed(K.self, catchUp: true)
        } catch let error as EventStoreError where Self.isDamage(error) {
            caughtUp = try await loadKeyed(K.self, catchUp: true, ignoringStored: true)
        }
        if let stored = (try? stored(K.name, K.schemaVersion)) ?? nil, try await fits(stored.checkpoint, last) {
            var state = K.State()
            let source = StateRowSource(stored: stored, memory: MemoryRows(caughtUp.unsaved), asOf: target)
            var attach = AttachTables(source: source, recording: false)
            state.visitTables(&attach)
            return Loaded(state: state, position: target, caughtUp: caughtUp.loaded.caughtUp, rebuilt: caughtUp.loaded.rebuilt, saveError: caughtUp.loaded.saveError, rows: source)
        }
        // Nothing stored (a store that cannot be written): the fold up to the moment.
        let folder = KeyedFolder(K.self, source: nil, recording: false)
        try await fold([folder], after: nil, through: target)
        return Loaded(state: folder.state, position: target, caughtUp: 0, rebuilt: true, saveError: caughtUp.loaded.saveError)
    }

    private func wholeState<P: Projection>(_ type: P.Type, atPosition position: UInt64) async throws -> Loaded<P.State> {
        guard let last = try await store.lastPosition() else { return Loaded(state: P.State(), position: nil, caughtUp: 0, rebuilt: false) }
        let target = min(position, last)
        var folder = WholeFolder(P.self, snapshotInterval: snapshotInterval, maxSnapshotBytes: maxSnapshotBytes)
        // A snapshot is derived data: one that does not decode is passed over for the start, never trusted.
        if let stored = (try? stored(P.name, P.schemaVersion)) ?? nil, try await fits(stored.checkpoint, last),
            let base = try? stored.version(of: wholeStateKey, asOf: target), let bytes = base.value,
            let resumed = try? WholeFolder(
                P.self, bytes: bytes, position: base.position, applied: 0, lastSnapshot: nil, snapshotInterval: snapshotInterval,
                maxSnapshotBytes: maxSnapshotBytes)
        {
            folder = resumed
        }
        if folder.position.map({ $0 < target }) ?? true {
            try await fold([folder], after: folder.position, through: target)
        }
        return Loaded(state: folder.state, position: target, caughtUp: 0, rebuilt: false)
    }

    /// The last position recorded at or before a time (`nil` when the log was empty then).
    public func position(atOrBefore time: Timestamp) async throws -> UInt64? {
        try await store.lastPosition(atOrBefore: time)
    }
}
