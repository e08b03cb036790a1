public import EventLog
import Synchronization

/// Snapshots of stream states held in memory: the reference implementation of ``SnapshotStore``, for tests and
/// for the in-memory event store.
public final class InMemorySnapshotStore: SnapshotStore {
    private struct Key: Hashable {
        var kind: String
        var stream: StreamID
    }

    private let snapshots = Mutex<[Key: StreamSnapshot]>([:])

    /// Creates an empty store.
    public init() {}

    public func snapshot(of stream: StreamID, kind: String) async throws -> StreamSnapshot? {
        snapshots.withLock { $0[Key(kind: kind, stream: stream)] }
    }

    public func save(_ new: [StreamSnapshot]) async throws {
        snapshots.withLock { all in
            for s in new { all[Key(kind: s.kind, stream: s.stream)] = s }
        }
    }

    public func forEach(_ body: (StreamSnapshot) throws -> Bool) async throws {
        let all = snapshots.withLock { Array($0.values) }
        for s in all {
            guard try body(s) else { return }
        }
    }

    public func remove(stream: StreamID, kind: String) async throws {
        _ = snapshots.withLock { $0.removeValue(forKey: Key(kind: kind, stream: stream)) }
    }

    public func removeAll() async throws {
        snapshots.withLock { $0.removeAll() }
    }

    /// How many snapshots are stored (for tests).
    public var count: Int { snapshots.withLock { $0.count } }
}
