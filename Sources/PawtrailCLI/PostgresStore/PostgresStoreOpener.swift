import EventLog
import EventLogPostgres
import ProjectionRuntime

/// Opens a store on a PostgreSQL server, named by a `postgresql://` or `postgres://` URL. Decisions keep their
/// stream states in the store's snapshots table. The read models' states are kept in memory for the one process:
/// a view on this store folds the log anew each time.
public final class PostgresStoreOpener: StoreOpener {
    /// Creates the opener.
    public init() {}

    public func open(location: String, access: StoreAccess) throws -> OpenedStore {
        var options = PostgresEventStore.Options()
        if case .write = access { options.createIfMissing = true }
        let store = try PostgresEventStore.open(url: location, options: options)
        return OpenedStore(events: store, states: InMemoryProjectionStateStore(), snapshots: PostgresSnapshotStore(store: store))
    }
}
