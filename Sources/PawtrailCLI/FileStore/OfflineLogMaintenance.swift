public import EventLogFile

/// What an opener of file stores can do with a store whose damage keeps it from opening: check it and lay its
/// segments open from the files alone (`log verify`, `log inspect`).
public protocol OfflineLogMaintenance: Sendable {
    /// Checks a store from its files.
    ///
    /// - Parameter location: The store directory.
    /// - Returns: The report.
    /// - Throws: ``EventStoreError`` when the files cannot be read at all.
    func verifyWithoutOpening(location: String) throws -> VerifyReport

    /// Lays open one segment of a store from its files.
    ///
    /// - Parameters:
    ///   - location: The store directory.
    ///   - segment: The segment's file name or first position.
    /// - Returns: What the segment holds.
    /// - Throws: ``EventStoreError`` when there is no such segment or it cannot be read.
    func inspectWithoutOpening(location: String, segment: String) throws -> SegmentInspection
}

extension CommandContext {
    /// The opener of the store's kind, when it can check a store that does not open; `nil` for other kinds.
    var offlineMaintenance: (any OfflineLogMaintenance)? {
        let opener = (storeOpener as? StoreOpeners)?.opener(for: storePath) ?? storeOpener
        return opener as? any OfflineLogMaintenance
    }
}
