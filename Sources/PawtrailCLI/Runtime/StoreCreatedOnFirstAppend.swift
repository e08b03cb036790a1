import EventLog
import Synchronization

/// The store of a domain command when none exists yet: it reads as empty until its first append, which creates it.
///
/// A command that fails (bad input, a rule of the domain, an unknown user) never appends, so it leaves no store
/// behind: before, `pet add --as nobody` or an `exec` of nothing created an empty store at the path given, a typo
/// in `--store` included (found in review). Another process may create the store meanwhile; the append then goes
/// to that store, and its expected versions, decided against the empty one, fail as a conflict if it was written.
final class StoreCreatedOnFirstAppend: EventStore {
    private let create: @Sendable () throws -> any EventStore
    private let created = Mutex<(any EventStore)?>(nil)

    /// Creates the stand-in.
    ///
    /// - Parameter create: Opens the store, creating it; called at most once, by the first append.
    init(create: @escaping @Sendable () throws -> any EventStore) {
        self.create = create
    }

    private var store: (any EventStore)? { created.withLock { $0 } }

    func append(_ request: AppendRequest) async throws -> AppendResult {
        let store = try created.withLock { store in
            if let store { return store }
            let opened = try create()
            store = opened
            return opened
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

    func lastPosition() async throws -> UInt64? {
        try await store?.lastPosition()
    }

    func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? {
        try await store?.lastPosition(atOrBefore: time)
    }

    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        guard let store else {
            try await Task.sleep(for: timeout)
            return false
        }
        return try await store.waitForAppends(after: position, timeout: timeout)
    }
}
