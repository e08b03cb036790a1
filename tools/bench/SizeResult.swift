/// On-disk size of the stores written by the 1000-per-commit scenario, and the raw JSON of the same events.
struct SizeResult: Codable, Sendable {
    /// Events stored.
    var events: Int
    /// JSON Lines (CLI batch shape) size of the events.
    var rawJSONBytes: UInt64
    /// `stats().diskBytes` of our store, `nil` when it failed.
    var oursStatsDiskBytes: UInt64?
    /// `stats().rawBytes` of our store (its own uncompressed figure).
    var oursStatsRawBytes: UInt64?
    /// Of `oursStatsDiskBytes`: segment files, index files.
    var oursSegmentBytes: UInt64?
    var oursIndexBytes: UInt64?
    /// Our segments, of which compacted, and trained dictionaries in use.
    var oursSegments: Int?
    var oursCompactedSegments: Int?
    var oursDictionaries: Int?
    /// Sum of the sizes of the files in our store directory (`du --apparent-size`).
    var oursFileBytes: UInt64?
    /// Sum of the allocated blocks of those files (`du`).
    var oursAllocatedBytes: UInt64?
    /// SQLite database plus WAL after `wal_checkpoint(TRUNCATE)`.
    var sqliteBytes: UInt64?
    /// Allocated blocks of the SQLite files.
    var sqliteAllocatedBytes: UInt64?
    /// Why a figure is missing.
    var error: String?
}
