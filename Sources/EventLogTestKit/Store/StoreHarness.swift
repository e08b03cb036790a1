public import EventLog
public import Testing

/// A fresh, empty store of one backend for one conformance case, and what the case may ask of it between its
/// appends and its reads.
public protocol StoreHarness: AnyObject, Sendable {
    /// The store under test.
    var store: any EventStore { get }

    /// Called by cases between appends and reads. A backend may reopen its store here (to prove that what is read
    /// next comes from storage), or wait for its background work; one with nothing to do does nothing.
    ///
    /// - Throws: What reopening throws.
    func checkpoint() throws

    /// Closes the store and opens it again on the same storage; a store with nothing to reopen keeps itself.
    ///
    /// - Throws: What reopening throws.
    func reopen() throws

    /// For a backend that splits its storage (segments): records an issue unless the case's appends reached more
    /// than one part, the premise of cases that mean to read across them. Others do nothing.
    ///
    /// - Parameter sourceLocation: Where the case asked.
    /// - Throws: What inspecting the storage throws.
    func expectRolledOver(sourceLocation: SourceLocation) throws
}

extension StoreHarness {
    public func checkpoint() throws {}

    public func reopen() throws {}

    public func expectRolledOver(sourceLocation: SourceLocation) throws {}

    /// ``expectRolledOver(sourceLocation:)`` at the caller's line.
    public func expectRolledOver(_ sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectRolledOver(sourceLocation: sourceLocation)
    }
}
