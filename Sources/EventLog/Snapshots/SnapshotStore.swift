/// Where a store keeps snapshots of stream states (see ``StreamSnapshot``), beside its events: the file log in a
/// database file in its directory, the in-memory store in memory, a database server in a table.
///
/// A snapshot store is a cache. Losing a snapshot, or every one of them, costs time and never correctness: whoever
/// takes one up checks it against the stream (see ``StreamSnapshot``) and folds from the start when it does not fit.
///
/// # Implementation requirements
/// - ``snapshot(of:kind:)`` returns what the last ``save(_:)`` of that stream and kind stored, whatever its schema
///   version, or `nil`; a snapshot that fails its own checksum or cannot be read counts as missing (`nil`), never as
///   an error the caller must handle.
/// - ``save(_:)`` replaces each given stream and kind's snapshot, all or none of them; it need not be durable.
/// - ``forEach(_:)`` visits every stored snapshot once; ``remove(stream:kind:)`` and ``removeAll()`` forget them.
/// - Safe to call from several tasks at once, and, for a store other processes share, from several processes.
///
/// Every implementation must pass the conformance suite `SnapshotStoreConformance` (in the `EventLogTestKit`
/// target), which each backend's tests run against a fresh store.
public protocol SnapshotStore: Sendable {
    /// The snapshot of a stream by a kind of fold, `nil` when there is none (or it is unreadable).
    ///
    /// - Parameters:
    ///   - stream: The stream.
    ///   - kind: The fold's name.
    /// - Returns: The snapshot, of whatever schema version it was saved with.
    /// - Throws: An I/O error the store cannot pass over.
    func snapshot(of stream: StreamID, kind: String) async throws -> StreamSnapshot?

    /// Stores snapshots, each replacing the one of its stream and kind.
    ///
    /// - Parameter snapshots: The snapshots (at most one per stream and kind).
    /// - Throws: An I/O error; a read-only store throws too, and callers treat any failure as a lost cache entry.
    func save(_ snapshots: [StreamSnapshot]) async throws

    /// Visits every stored snapshot, in no particular order.
    ///
    /// - Parameter body: Called with each snapshot; return `false` to stop.
    /// - Throws: An I/O error, or what `body` throws.
    func forEach(_ body: (StreamSnapshot) throws -> Bool) async throws

    /// Forgets a stream's snapshot by a kind of fold.
    ///
    /// - Parameters:
    ///   - stream: The stream.
    ///   - kind: The fold's name.
    /// - Throws: An I/O error.
    func remove(stream: StreamID, kind: String) async throws

    /// Forgets every snapshot.
    ///
    /// - Throws: An I/O error.
    func removeAll() async throws

    /// Forgets every snapshot tagged with an account (``StreamSnapshot/subject``), leaving no copy of their states in
    /// the store's files where the store can see to it: an erasure.
    ///
    /// - Parameter subject: The account.
    /// - Throws: An I/O error.
    func removeAll(taggedWith subject: String) async throws
}

extension SnapshotStore {
    /// Visits every snapshot and removes those tagged with the account: a pass over the whole store, which a store
    /// with an index of the tags replaces by one deletion.
    public func removeAll(taggedWith subject: String) async throws {
        var tagged: [(StreamID, String)] = []
        try await forEach { snapshot in
            if snapshot.subject == subject { tagged.append((snapshot.stream, snapshot.kind)) }
            return true
        }
        for (stream, kind) in tagged { try await remove(stream: stream, kind: kind) }
    }
}
