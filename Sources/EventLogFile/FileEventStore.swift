public import EventLog
import PawtrailIO

/// The embedded event store: a directory of zstd-compressed, checksummed, append-only segment files.
///
/// Interim skeleton: the implementation lands in the next commits.
public final class FileEventStore: EventStore, @unchecked Sendable {
    /// The store directory.
    public let path: String
    /// What opening repaired, if anything.
    public private(set) var recovery: RecoveryReport?

    private init(path: String) {
        self.path = path
    }

    /// Opens (or, with ``FileEventStoreOptions/createIfMissing``, creates) the store in a directory.
    ///
    /// - Parameters:
    ///   - path: The store directory.
    ///   - options: How to open and write.
    /// - Returns: The open store.
    /// - Throws: ``EventStoreError/storeNotFound(path:)``, ``EventStoreError/incompatibleFormat(path:found:supported:)``,
    ///   ``EventStoreError/corrupted(file:offset:reason:)`` or an I/O error.
    public static func open(path: String, options: FileEventStoreOptions = FileEventStoreOptions()) throws -> FileEventStore {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    public func append(_ request: AppendRequest) async throws -> AppendResult {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    public func read(_ request: ReadRequest) async throws -> ReadBatch {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    public func streamVersion(of stream: StreamID) async throws -> UInt64? {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    public func lastPosition() async throws -> UInt64? {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    public func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    /// Size and content figures.
    ///
    /// - Returns: The stats.
    /// - Throws: An I/O or corruption error.
    public func stats() throws -> LogStats {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    /// Checks every checksum, every index entry against the data, and the positions for gaps.
    ///
    /// - Returns: The report; problems do not throw.
    /// - Throws: Only when the store cannot be read at all.
    public func verify() throws -> VerifyReport {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    /// Lays open one segment: header, frames, footer and index.
    ///
    /// - Parameter segment: The segment's file name (as `stats`/`verify` name it) or its first position.
    /// - Returns: The inspection.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` when there is no such segment, or an I/O error.
    public func inspect(segment: String) throws -> SegmentInspection {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    /// Rewrites every sealed segment not yet compacted into large compressed blocks.
    ///
    /// - Returns: The segment files rewritten.
    /// - Throws: An I/O or corruption error.
    @discardableResult
    public func compact() throws -> [String] {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }

    /// The segment file names, oldest first.
    ///
    /// - Throws: An I/O error.
    public func segmentNames() throws -> [String] {
        throw EventStoreError.storeFailure("the file store is not implemented yet")
    }
}
