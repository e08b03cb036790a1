import EventLog
import EventLogPostgres
import EventLogSealing
import ProjectionRuntime
import ProjectionStatePostgres

/// Opens a store on a PostgreSQL server, named by a `postgresql://` or `postgres://` URL. Decisions keep their
/// stream states in the store's snapshots table, and the read models their states in its projection tables: every
/// machine that uses the store shares them.
public final class PostgresStoreOpener: StoreOpener {
    /// Creates the opener.
    public init() {}

    public func open(location: String, access: StoreAccess) throws -> OpenedStore {
        var options = PostgresEventStore.Options()
        if case .write = access { options.createIfMissing = true }
        let store = try PostgresEventStore.open(url: location, options: options)
        return OpenedStore(
            events: SealingEventStore(base: store, keys: PostgresPersonalDataKeys(store: store)), states: PostgresProjectionStateStore(store: store), snapshots: PostgresSnapshotStore(store: store))
    }
}
