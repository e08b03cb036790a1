import Foundation
import EventLog
import Synchronization

/// The store of a domain command when none exists yet: it reads as empty until its first append, which creates it.
///
/// A command that fails (bad input, a rule of the domain, an unknown user) never appends, so it leaves no store
/// behind: `pet add --as nobody` or an `exec` of nothing creates no empty store at the path given, a typo
/// in `--store` included. Another process may create the store meanwhile; the append then goes
/// to that store, and its expected versions, decided against the empty one, fail as a conflict if it was written.
final class StoreCreatedOnFirstAppend: EventStore {
    private let create: @Sendable () throws -> OpenedStore
    private let created = Mutex<OpenedStore?>(nil)

    /// Creates the stand-in.
    ///
    /// - Parameter create: Opens the store, creating it; called at most once, by the first append.
    init(create: @escaping @Sendable () throws -> OpenedStore) {
        self.create = create
    }

    private var store: (any EventStore)? { created.withLock { $0?.events } }

    /// The snapshots of the store once it is created; before, there is nothing to read and nothing worth saving.
    var snapshots: any SnapshotStore { SnapshotsOfCreatedStore(owner: self) }

    fileprivate var createdSnapshots: (any SnapshotStore)? { created.withLock { $0?.snapshots } }

    func append(_ request: AppendRequest) async throws -> AppendResult {
        let store = try created.withLock { store in
            if let store { return store.events }
            let opened = try create()
            store = opened
            return opened.events
        }
        return try await store.append(request)
    }

    func read(_ request: ReadRequest) async throws -> ReadBatch {
        guard let store else { return ReadBatch(events: [], next: nil) }
        return try await store.read(request)
    }

    func streamVersion(of stream: StreamID) async throws -> UInt64? {
        try await store?.streamVersion(of: stream)
    }

    func event(withID id: UUID) async throws -> RecordedEvent? {
        try await store?.event(withID: id)
    }

    func position(of stream: StreamID, version: UInt64) async throws -> UInt64? {
        try await store?.position(of: stream, version: version)
    }

    func lastPosition() async throws -> UInt64? {
        try await store?.lastPosition()
    }

    func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? {
        try await store?.lastPosition(atOrBefore: time)
    }

    func flush() async throws {
        try await store?.flush()
    }

    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        guard let store else {
            try await Task.sleep(for: timeout)
            return false
        }
        return try await store.waitForAppends(after: position, timeout: timeout)
    }
}

/// The snapshot store of a store created by its first append: empty and discarding until then.
private struct SnapshotsOfCreatedStore: SnapshotStore {
    let owner: StoreCreatedOnFirstAppend

    func snapshot(of stream: StreamID, kind: String) async throws -> StreamSnapshot? {
        try await owner.createdSnapshots?.snapshot(of: stream, kind: kind)
    }

    func save(_ snapshots: [StreamSnapshot]) async throws {
        try await owner.createdSnapshots?.save(snapshots)
    }

    func forEach(_ body: (StreamSnapshot) throws -> Bool) async throws {
        try await owner.createdSnapshots?.forEach(body)
    }

    func remove(stream: StreamID, kind: String) async throws {
        try await owner.createdSnapshots?.remove(stream: stream, kind: kind)
    }

    func removeAll() async throws {
        try await owner.createdSnapshots?.removeAll()
    }
}
