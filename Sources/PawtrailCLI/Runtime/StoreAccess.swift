/// How a command opens the store.
public enum StoreAccess: Sendable, Hashable {
    /// Read only: a missing store is an error.
    case read
    /// Appending: a missing store is created. `sync: false` skips the flush (explicit bulk import).
    case write(sync: Bool)
}
