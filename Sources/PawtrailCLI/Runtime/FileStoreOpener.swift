import EventLogFile

/// Opens a ``FileEventStore`` with the CLI's options.
public struct FileStoreOpener: StoreOpener {
    /// Creates the opener.
    public init() {}

    public func open(path: String, access: StoreAccess) throws -> OpenedStore {
        var options = FileEventStoreOptions()
        if case .write(let sync) = access {
            options.createIfMissing = true
            options.durability = sync ? .sync : .noSync
        }
        let store = try FileEventStore.open(path: path, options: options)
        return OpenedStore(events: store, maintenance: store, recovery: store.recovery?.description)
    }
}
