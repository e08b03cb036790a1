public import EventLog

/// What opening a store repaired: a torn or corrupt tail of the active segment, cut back to the last valid commit.
public struct RecoveryReport: Hashable, Sendable, CustomStringConvertible {
    /// The segment file repaired.
    public var segment: String
    /// The offset the segment was cut back to.
    public var truncatedAt: UInt64
    /// How many bytes were removed.
    public var bytesRemoved: UInt64
    /// Why (e.g. "commit frame ends past the end of the file").
    public var reason: String

    public var description: String {
        "recovered \(segment): removed a torn tail of \(bytesRemoved) bytes at offset \(truncatedAt) (\(reason))"
    }
}

/// Size and content figures of a store (`pawtrail log stats`).
public struct LogStats: Hashable, Sendable {
    /// Segment files, sealed and active.
    public var segments: Int
    /// Sealed segments rewritten into compressed blocks.
    public var compactedSegments: Int
    /// Committed events.
    public var events: UInt64
    /// Distinct streams.
    public var streams: UInt64
    /// The first position (0), `nil` for an empty store.
    public var firstPosition: UInt64?
    /// The last position, `nil` for an empty store.
    public var lastPosition: UInt64?
    /// When the first event was recorded.
    public var firstRecordedAt: Timestamp?
    /// When the last event was recorded.
    public var lastRecordedAt: Timestamp?
    /// Uncompressed size of the events: stream ids, types, ids, metadata and data as encoded in the log.
    public var rawBytes: UInt64
    /// Bytes on disk: segments, indexes, dictionaries and store files.
    public var diskBytes: UInt64
    /// Of `diskBytes`, the bytes of segment files.
    public var segmentBytes: UInt64
    /// Of `diskBytes`, the bytes of index files: the sealed segments' `.sidx` and `.eidx`, and the index runs'.
    public var indexBytes: UInt64
    /// Trained dictionaries in use.
    public var dictionaries: Int
    /// Of `segmentBytes`, the zeros the writer keeps ahead of the data in the active segment (so a commit's
    /// flush writes data only); they hold no events.
    public var preallocatedBytes: UInt64 = 0
    /// Index runs in use: the merged indexes of consecutive sealed segments, taken up from the first sealed segment
    /// on (see ``FileEventStoreOptions/indexRunSegments``). A run that is missing or damaged ends them: the runs after
    /// it are not used until the writer's upkeep builds it again.
    public var indexRuns: Int = 0
    /// Of the sealed segments, those the index runs in use cover (the oldest); lookups ask the others one by one.
    public var indexedSegments: Int = 0

    /// Uncompressed event bytes per byte on disk, preallocated space left out; `nil` for an empty store.
    public var compressionRatio: Double? {
        let used = diskBytes - min(diskBytes, preallocatedBytes)
        return used == 0 || events == 0 ? nil : Double(rawBytes) / Double(used)
    }

    /// Creates stats.
    public init(
        segments: Int, compactedSegments: Int, events: UInt64, streams: UInt64, firstPosition: UInt64?,
        lastPosition: UInt64?, firstRecordedAt: Timestamp?, lastRecordedAt: Timestamp?, rawBytes: UInt64,
        diskBytes: UInt64, segmentBytes: UInt64, indexBytes: UInt64, dictionaries: Int
    ) {
        self.segments = segments
        self.compactedSegments = compactedSegments
        self.events = events
        self.streams = streams
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.firstRecordedAt = firstRecordedAt
        self.lastRecordedAt = lastRecordedAt
        self.rawBytes = rawBytes
        self.diskBytes = diskBytes
        self.segmentBytes = segmentBytes
        self.indexBytes = indexBytes
        self.dictionaries = dictionaries
    }
}

/// The outcome of `pawtrail log verify`.
public struct VerifyReport: Hashable, Sendable {
    /// One problem found.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The file.
        public var file: String
        /// The byte offset in the file, where it applies.
        public var offset: UInt64?
        /// What is wrong.
        public var message: String

        /// Creates a problem.
        public init(file: String, offset: UInt64?, message: String) {
            self.file = file
            self.offset = offset
            self.message = message
        }

        public var description: String {
            offset.map { "\(file) at offset \($0): \(message)" } ?? "\(file): \(message)"
        }
    }

    /// Segments checked.
    public var segments: Int
    /// Events checked.
    public var events: UInt64
    /// Index entries checked against the data.
    public var indexEntries: UInt64
    /// Problems found; empty means the store is sound.
    public var problems: [Problem]

    /// Whether nothing is wrong.
    public var isOK: Bool { problems.isEmpty }

    /// Creates a report.
    public init(segments: Int, events: UInt64, indexEntries: UInt64, problems: [Problem]) {
        self.segments = segments
        self.events = events
        self.indexEntries = indexEntries
        self.problems = problems
    }
}

/// One segment laid open (`pawtrail log inspect SEGMENT`).
public struct SegmentInspection: Hashable, Sendable {
    /// One frame of the segment: a commit (active layout) or a block of commits (compacted layout).
    public struct Frame: Hashable, Sendable {
        /// Byte offset of the frame in the file.
        public var offset: UInt64
        /// The frame's total size on disk, framing included.
        public var length: UInt64
        /// `commit` or `block`.
        public var kind: String
        /// The first event's position.
        public var firstPosition: UInt64
        /// Events in the frame.
        public var events: Int
        /// Commits in the frame.
        public var commits: Int
        /// `none`, `zstd` or `zstd+dictionary N`.
        public var codec: String
        /// Uncompressed payload size.
        public var rawLength: Int
        /// The first and last recorded-at times.
        public var firstRecordedAt: Timestamp
        public var lastRecordedAt: Timestamp
        /// Whether the frame's CRC32C matched.
        public var checksumOK: Bool
        /// The frame's place in the group commit that wrote it (0: the group's first frame).
        public var groupIndex: Int = 0

        /// Creates a frame description.
        public init(
            offset: UInt64, length: UInt64, kind: String, firstPosition: UInt64, events: Int, commits: Int,
            codec: String, rawLength: Int, firstRecordedAt: Timestamp, lastRecordedAt: Timestamp, checksumOK: Bool
        ) {
            self.offset = offset
            self.length = length
            self.kind = kind
            self.firstPosition = firstPosition
            self.events = events
            self.commits = commits
            self.codec = codec
            self.rawLength = rawLength
            self.firstRecordedAt = firstRecordedAt
            self.lastRecordedAt = lastRecordedAt
            self.checksumOK = checksumOK
        }
    }

    /// The file name.
    public var name: String
    /// Header: format version, the oldest reader version that can read it, layout, first position, creation time.
    public var formatVersion: Int
    public var minimumReaderVersion: Int
    /// `active`, `sealed` or `compacted`.
    public var state: String
    public var firstPosition: UInt64
    public var createdAt: Timestamp
    /// File size.
    public var fileBytes: UInt64
    /// The frames in file order.
    public var frames: [Frame]
    /// Footer of a sealed segment: event count, last position and whole-segment checksum (and whether it matched).
    public var footerEvents: UInt64?
    public var footerLastPosition: UInt64?
    public var footerChecksum: UInt32?
    public var footerChecksumOK: Bool?
    /// Index entries: streams in the segment's stream index, ids in its event-id index, time-index entries.
    public var indexStreams: Int
    public var indexEventIDs: Int
    public var timeIndexEntries: Int
    /// The active segment's checkpoint on disk, when it has a valid one: the events it covers, and where they end.
    public var checkpointEvents: UInt64?
    public var checkpointEnd: UInt64?

    /// Creates an inspection.
    public init(
        name: String, formatVersion: Int, minimumReaderVersion: Int, state: String, firstPosition: UInt64,
        createdAt: Timestamp, fileBytes: UInt64, frames: [Frame], footerEvents: UInt64?, footerLastPosition: UInt64?,
        footerChecksum: UInt32?, footerChecksumOK: Bool?, indexStreams: Int, indexEventIDs: Int, timeIndexEntries: Int,
        checkpointEvents: UInt64? = nil, checkpointEnd: UInt64? = nil
    ) {
        self.name = name
        self.formatVersion = formatVersion
        self.minimumReaderVersion = minimumReaderVersion
        self.state = state
        self.firstPosition = firstPosition
        self.createdAt = createdAt
        self.fileBytes = fileBytes
        self.frames = frames
        self.footerEvents = footerEvents
        self.footerLastPosition = footerLastPosition
        self.footerChecksum = footerChecksum
        self.footerChecksumOK = footerChecksumOK
        self.indexStreams = indexStreams
        self.indexEventIDs = indexEventIDs
        self.timeIndexEntries = timeIndexEntries
        self.checkpointEvents = checkpointEvents
        self.checkpointEnd = checkpointEnd
    }
}
