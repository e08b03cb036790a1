/// A store that can take events exactly as another store recorded them (positions, versions, ids, times, metadata
/// and data), to move a log from one store to another (`pawtrail store migrate`).
public protocol EventImporting: EventStore {
    /// Writes events as they are, at the store's next positions.
    ///
    /// Events the source recorded at one time may be committed together; each commit is atomic. A failure may
    /// leave a prefix of the events written, whole commits only, so an import resumes from the store's last
    /// position.
    ///
    /// - Parameter events: Events in position order, the first at the store's next position, each stream's
    ///   versions following on from the store's, times never decreasing.
    /// - Throws: ``EventStoreError/Code/invalidRequest`` when they do not follow on from the store; what the
    ///   store's writes throw.
    func importEvents(_ events: [RecordedEvent]) async throws
}
