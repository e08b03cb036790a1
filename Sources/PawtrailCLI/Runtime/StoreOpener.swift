public import EventLogFile

/// Opens the store a command works on; the tool opens a ``FileStoreOpener``, tests pass an in-memory store.
public protocol StoreOpener: Sendable {
    /// Opens the store at a path.
    ///
    /// - Parameters:
    ///   - path: The store directory.
    ///   - access: Read, or write (which creates a missing store).
    /// - Returns: The store.
    /// - Throws: `EventStoreError` (e.g. `storeNotFound`).
    func open(path: String, access: StoreAccess) throws -> OpenedStore

    /// Lets the stores opened finish their background work; called once the command is done.
    func finish()

    /// Checks a store whose damage keeps it from opening, from its files; `nil` when this kind of store has none.
    func verifyWithoutOpening(path: String) throws -> VerifyReport?

    /// Lays open one segment of a store whose damage keeps it from opening, from its files; `nil` when this kind of
    /// store has none.
    func inspectWithoutOpening(path: String, segment: String) throws -> SegmentInspection?
}

extension StoreOpener {
    public func finish() {}

    public func verifyWithoutOpening(path: String) throws -> VerifyReport? { nil }

    public func inspectWithoutOpening(path: String, segment: String) throws -> SegmentInspection? { nil }
}
