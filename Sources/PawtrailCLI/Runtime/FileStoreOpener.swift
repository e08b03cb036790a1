import EventLogFile
import ProjectionRuntime
import Synchronization

/// Opens a ``FileEventStore`` with the CLI's options, and remembers what it opened so the process can let
/// each store finish its background work (compaction of a segment the command sealed, dictionary training)
/// before it exits: otherwise every short-lived CLI process would cut that work off.
public final class FileStoreOpener: StoreOpener {
    private let opened = Mutex<[FileEventStore]>([])

    /// Creates the opener.
    public init() {}

    public func open(path: String, access: StoreAccess) throws -> OpenedStore {
        var options = FileEventStoreOptions()
        if case .write(let sync) = access {
            options.createIfMissing = true
            options.durability = sync ? .sync : .noSync
        }
        let store = try FileEventStore.open(path: path, options: options)
        opened.withLock { $0.append(store) }
        return OpenedStore(
            events: store, maintenance: store, recovery: store.recovery?.description,
            checkpoints: FileCheckpointStore(storePath: path))
    }

    public func verifyWithoutOpening(path: String) throws -> VerifyReport? {
        try FileEventStore.verifyWithoutOpening(path: path)
    }

    /// Waits for the background work of every store opened, then forgets them.
    public func finish() {
        for store in opened.withLock({ stores in defer { stores = [] }; return stores }) { store.close() }
    }
}
