/// How a command opens the store.
public enum StoreAccess: Sendable, Hashable {
    /// Read only: a missing store is an error.
    case read
    /// Read only, the log read only when something asks for its events: read models already caught up answer from
    /// the log's head alone.
    case readWhenNeeded
    /// Appending: a missing store is created. `sync: false` skips the flush (explicit bulk import).
    case write(sync: Bool)
}
