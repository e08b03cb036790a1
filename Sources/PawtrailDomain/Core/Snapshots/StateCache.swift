import EventLog
import Synchronization

/// Stream states kept in memory between the commands of one process (`exec`), with the version each reflects, and
/// the snapshots waiting to be saved.
///
/// Taking a state from the cache costs one version lookup in the store instead of a snapshot read and a fold: the
/// state is used only while the stream is still at that version. Bounded: past ``capacity`` states, the ones least
/// recently used are dropped (two generations: a state used again moves to the newer one).
public final class StateCache: Sendable {
    struct Key: Hashable {
        var stream: StreamID
        var kind: String
    }

    private struct Store {
        var newer: [Key: LoadedState] = [:]
        var older: [Key: LoadedState] = [:]
        /// States whose snapshots are due, encoded only when they are taken: a stream written by many commands
        /// (a product's inventory, at every order) is queued again and again, and only its last state is saved.
        var pending: [Key: (stream: StreamID, state: LoadedState)] = [:]
    }

    /// The most states kept.
    public let capacity: Int
    private let store = Mutex(Store())

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: The most states kept (at least 2).
    public init(capacity: Int = 100_000) {
        self.capacity = max(2, capacity)
    }

    /// A state kept for a stream by an aggregate kind, `nil` when none.
    func state(of stream: StreamID, kind: String) -> LoadedState? {
        store.withLock { s in
            let key = Key(stream: stream, kind: kind)
            if let hit = s.newer[key] { return hit }
            guard let hit = s.older.removeValue(forKey: key) else { return nil }
            Self.insert(key, hit, into: &s, capacity: capacity)
            return hit
        }
    }

    /// Keeps a state.
    func keep(_ loaded: LoadedState, of stream: StreamID) {
        store.withLock { s in
            Self.insert(Key(stream: stream, kind: type(of: loaded.state).snapshotKind), loaded, into: &s, capacity: capacity)
        }
    }

    private static func insert(_ key: Key, _ value: LoadedState, into s: inout Store, capacity: Int) {
        s.newer[key] = value
        if s.newer.count >= capacity / 2 {
            s.older = s.newer
            s.newer = [:]
        }
    }

    /// Queues states to save as snapshots later (each replacing a queued one of its stream and kind).
    ///
    /// - Returns: How many are queued.
    func queue(_ states: [(stream: StreamID, state: LoadedState)]) -> Int {
        store.withLock { s in
            for q in states { s.pending[Key(stream: q.stream, kind: type(of: q.state.state).snapshotKind)] = q }
            return s.pending.count
        }
    }

    /// Takes the queued states, as snapshots.
    func takeQueued() -> [StreamSnapshot] {
        let queued = store.withLock { s in
            defer { s.pending = [:] }
            return Array(s.pending.values)
        }
        return queued.compactMap { $0.state.snapshot(of: $0.stream) }
    }

    /// How many states are kept.
    public var count: Int { store.withLock { $0.newer.count + $0.older.count } }
}
