import EventLog

/// Opens the store a command works on, of one kind: the tool picks one by the store's location
/// (``StoreOpeners``), tests pass an in-memory store.
public protocol StoreOpener: Sendable {
    /// Opens the store at a location.
    ///
    /// - Parameters:
    ///   - location: The store's location, as `--store` or `$PAWTRAIL_STORE` named it: a directory for the file
    ///     store, a URL for a server.
    ///   - access: Read, or write (which creates a missing store).
    /// - Returns: The store.
    /// - Throws: ``EventStoreError`` (e.g. ``EventStoreError/Code/storeNotFound``).
    func open(location: String, access: StoreAccess) throws -> OpenedStore

    /// Lets the stores opened finish their background work; called once the command is done.
    func finish()
}

extension StoreOpener {
    public func finish() {}
}
