public import EventLogFile

/// The operations of a store that lives in files: stats, verify, inspect, compact. A separate protocol so
/// commands can be tested with a store that fakes them.
public protocol LogMaintenance: Sendable {
    /// Size and content figures.
    func stats() throws -> LogStats
    /// Checks checksums, indexes and positions.
    func verify() throws -> VerifyReport
    /// Lays open one segment.
    func inspect(segment: String) throws -> SegmentInspection
    /// Rewrites sealed segments into compressed blocks; returns the segment files rewritten.
    func compact() throws -> [String]
}

extension FileEventStore: LogMaintenance {}
