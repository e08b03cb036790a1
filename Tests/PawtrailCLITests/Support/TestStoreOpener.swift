import EventLog
import EventLogMemory
@testable import PawtrailCLI
import Synchronization

/// Hands every command the same in-memory store. Until a command opens it for writing, a read finds no
/// store (`storeNotFound`), as with the file store.
final class TestStoreOpener: StoreOpener {
    let store = InMemoryEventStore()
    private let created = Mutex(false)

    func open(path: String, access: StoreAccess) throws -> OpenedStore {
        let exists = created.withLock { c in
            if case .write = access { c = true }
            return c
        }
        guard exists else { throw EventStoreError.storeNotFound(path: path) }
        return OpenedStore(events: store)
    }
}
