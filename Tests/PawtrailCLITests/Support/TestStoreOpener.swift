import EventLog
import EventLogMemory
import Foundation
import ProjectionRuntime
@testable import PawtrailCLI
import Synchronization

/// Hands every command the same in-memory store. Until a command opens it for writing, a read finds no
/// store (`storeNotFound`), as with the file store.
final class TestStoreOpener: StoreOpener {
    /// Commits are stamped 2026-11-30T00:53:20Z plus one microsecond per commit, so output is reproducible.
    let store: InMemoryEventStore = {
        let commits = Mutex<Int64>(0)
        return InMemoryEventStore(clock: {
            Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000 + commits.withLock { n in defer { n += 1 }; return n })
        })
    }()
    private let created = Mutex(false)
    /// The read models' states, kept across commands as the file store keeps them.
    let states = InMemoryProjectionStateStore()

    func open(location path: String, access: StoreAccess) throws -> OpenedStore {
        let exists = created.withLock { c in
            if case .write = access { c = true }
            return c
        }
        guard exists else { throw EventStoreError.storeNotFound(location: path) }
        return OpenedStore(events: store, states: states)
    }
}
