public import EventLog
public import Events
import Foundation

/// Reads streams for a decision, folds them into states, and remembers the version each was read at: those
/// versions become the append's expectations.
///
/// A state is taken up, in this order, from the process's ``StateCache`` while the stream is still at the cached
/// version; from a snapshot (``SnapshotStore``) plus the events after it, when the stream still holds the event the
/// snapshot names at its version and position; else by folding the stream from its first event. All three give the
/// same state (a snapshot is what folding the same events gave, under the same ``Aggregate/schemaVersion``), so the
/// decision, and the versions it appends under, are those of a full fold.
public struct StreamLoader {
    /// The store read from.
    public let store: any EventStore
    /// The catalog events are decoded with.
    public let catalog: EventCatalog
    /// Where snapshots are read from, `nil` for none.
    public let snapshots: (any SnapshotStore)?
    /// States kept between commands, `nil` for none.
    public let cache: StateCache?
    /// Each loaded stream's version when it was first read (`nil`: no events).
    public private(set) var versions: [StreamID: UInt64?] = [:]
    /// The order streams were first loaded in.
    public private(set) var order: [StreamID] = []
    /// Every state loaded, by stream and aggregate kind.
    public private(set) var loaded: [StreamID: [String: LoadedState]] = [:]
    /// What the loads cost.
    public private(set) var stats = LoadStats()

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - catalog: How events are decoded.
    ///   - snapshots: Where snapshots are read from.
    ///   - cache: States kept between commands.
    public init(store: any EventStore, catalog: EventCatalog = .domain, snapshots: (any SnapshotStore)? = nil, cache: StateCache? = nil) {
        self.store = store
        self.catalog = catalog
        self.snapshots = snapshots
        self.cache = cache
    }

    /// Loads a stream's state.
    ///
    /// - Parameters:
    ///   - type: The aggregate to fold into.
    ///   - stream: The stream.
    /// - Returns: The state.
    /// - Throws: Store errors; ``EventStoreError/storeFailure(_:)`` naming the event when a catalog event does not
    ///   decode.
    public mutating func load<A: Aggregate>(_ type: A.Type, _ stream: StreamID) async throws -> A {
        if let known = loaded[stream]?[A.snapshotKind], let state = known.state as? A { return state }
        let result = try await fetch(A.self, stream)
        loaded[stream, default: [:]][A.snapshotKind] = result
        stats.streams += 1
        if versions[stream] == nil {
            versions[stream] = .some(result.version)
            order.append(stream)
        }
        return result.state as! A
    }

    /// The version a stream was loaded at, as an expectation.
    public func expectation(for stream: StreamID) -> ExpectedVersion? {
        guard let v = versions[stream] else { return nil }
        return v.map { .exact($0) } ?? .noStream
    }

    // MARK: - Taking a state up

    private mutating func fetch<A: Aggregate>(_ type: A.Type, _ stream: StreamID) async throws -> LoadedState {
        if let cached = cache?.state(of: stream, kind: A.snapshotKind), cached.state is A,
            try await store.streamVersion(of: stream) == cached.version
        {
            stats.cacheHits += 1
            return cached
        }
        if let snapshots, let snapshot = try await snapshots.snapshot(of: stream, kind: A.snapshotKind) {
            if snapshot.schemaVersion == A.schemaVersion, let state = try? A(snapshotBytes: snapshot.state),
                let loaded = try await resume(state, from: snapshot)
            {
                stats.snapshotHits += 1
                return loaded
            }
            stats.snapshotsPassedOver += 1
        }
        return try await fold(A(), stream, from: nil, snapshotVersion: nil)!
    }

    /// The state of a snapshot brought up to the stream's end, or `nil` when the stream no longer holds the event
    /// the snapshot names (a store of another history, or restored from an older copy).
    private mutating func resume<A: Aggregate>(_ state: A, from s: StreamSnapshot) async throws -> LoadedState? {
        guard let current = try await store.streamVersion(of: s.stream), current >= s.version else { return nil }
        if current == s.version {
            // Nothing after it: the index tells where that version is, without reading the event.
            guard try await store.position(of: s.stream, version: s.version) == s.position else { return nil }
            return LoadedState(state: state, version: s.version, position: s.position, eventID: s.eventID, snapshotVersion: s.version)
        }
        return try await fold(state, s.stream, from: s, snapshotVersion: s.version)
    }

    /// Folds a stream's events onto `state`: all of them, or those after a snapshot's (whose own event is read first
    /// and must be the one the snapshot names). Raw events (not in the catalog) are skipped but count for the version.
    private mutating func fold<A: Aggregate>(_ state: A, _ stream: StreamID, from snapshot: StreamSnapshot?, snapshotVersion: UInt64?)
        async throws -> LoadedState?
    {
        var state = state
        var last: (version: UInt64, position: UInt64, id: UUID)?
        var expectFirst = snapshot
        var fits = true
        var read = 0
        let catalog = self.catalog
        try await store.forEachPage(.stream(stream), from: snapshot?.version) { page in
            for recorded in page {
                if let s = expectFirst {
                    expectFirst = nil
                    guard recorded.version == s.version, recorded.position == s.position, recorded.id == s.eventID else {
                        fits = false
                        return false
                    }
                    continue
                }
                read += 1
                last = (recorded.version, recorded.position, recorded.id)
                do {
                    if let e = try catalog.decode(type: recorded.type, data: recorded.data) { state = A.evolve(state, e) }
                } catch {
                    throw EventStoreError.storeFailure(
                        "event at position \(recorded.position) (\(recorded.stream)@\(recorded.version), "
                            + "\(recorded.type)) cannot be decoded: \(error)")
                }
            }
            return true
        }
        stats.eventsRead += read
        guard fits, expectFirst == nil else { return nil }
        guard let last else {
            return LoadedState(state: state, version: snapshot?.version, position: snapshot?.position, eventID: snapshot?.eventID, snapshotVersion: snapshotVersion)
        }
        return LoadedState(state: state, version: last.version, position: last.position, eventID: last.id, snapshotVersion: snapshotVersion)
    }
}
