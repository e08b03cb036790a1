/// How a ``FileEventStore`` is opened and how it writes.
public struct FileEventStoreOptions: Sendable {
    /// Whether appends are flushed to disk before they return.
    public enum Durability: Sendable {
        /// `fdatasync` before an append returns (the default; group-committed).
        case sync
        /// No flush: for bulk imports that can be redone. A crash may lose acknowledged appends.
        case noSync
    }

    /// Create the store if the directory holds none (writers); readers leave this `false`.
    public var createIfMissing: Bool
    /// The size at which the active segment is sealed and a new one started (default 64 MiB).
    public var segmentSize: Int
    /// The event count at which the active segment is sealed even if smaller than ``segmentSize`` (default
    /// 131,072). The active segment's index lives in memory and is rebuilt when a process opens the store, from
    /// its newest checkpoint and the frames after it (see ``checkpointInterval``), so this bounds both that memory
    /// and the time to open (as Kafka rolls a segment when its index is full).
    public var maxSegmentEvents: Int
    /// Flush policy of appends.
    public var durability: Durability
    /// The uncompressed size of the blocks sealed segments are rewritten into (default 1 MiB).
    public var blockSize: Int
    /// The zstd level of sealed-segment blocks.
    public var blockCompressionLevel: Int32
    /// The zstd level of single commits in the active segment.
    public var commitCompressionLevel: Int32
    /// How many bytes of uncompressed commits the store holds before it trains its dictionary.
    public var dictionaryTrainingThreshold: Int
    /// Rewrite sealed segments into compressed blocks as soon as they are sealed.
    public var compactSealedSegments: Bool
    /// Lay compacted blocks and commits of 64 KiB or more out by columns (``ColumnarParts``; default `true`): about a
    /// quarter smaller at rest on JSON events, for some CPU on every read of them and on every large append. `false`
    /// writes rows, as format 1 did; the segments still say they need a format 3 reader, so it is no way back to an
    /// older build.
    public var columnarBlocks: Bool
    /// How many sealed segments the writer's upkeep (and ``FileEventStore/compact()``) merges into one index run
    /// (default 16; 0 or 1: this process builds none, though it still uses the runs it finds in the store).
    /// Appends ask each sealed segment no run covers whether a new event id or stream exists, so this divides
    /// that work, which otherwise grows with the store.
    public var indexRunSegments: Int
    /// How many events the active segment gains between two checkpoints of its index (default 16,384; 0: this
    /// process writes none, though it still starts from the ones it finds). A process opening the store scans only
    /// the active segment's frames after the newest checkpoint (see ``ActiveCheckpoint``), so this bounds the part
    /// of the time to open that grows with the active segment.
    public var checkpointInterval: Int
    /// Whether opening leaves the log unread until something reads it (default false: the log is read, and a torn
    /// tail repaired when no writer is at work, as the store opens). Meanwhile ``FileEventStore/lastPosition()``
    /// answers from the head file alone, so a reader whose read models are caught up never reads the log's indexes:
    /// the head names every acknowledged commit, and readers stop at it. A repair is then left to the next writer.
    public var loadsOnFirstUse = false

    /// Creates options; the defaults are what the CLI uses.
    public init(
        createIfMissing: Bool = false,
        segmentSize: Int = 64 << 20,
        maxSegmentEvents: Int = 131_072,
        durability: Durability = .sync,
        blockSize: Int = 1 << 20,
        blockCompressionLevel: Int32 = 6,
        commitCompressionLevel: Int32 = 1,
        dictionaryTrainingThreshold: Int = 4 << 20,
        compactSealedSegments: Bool = true,
        columnarBlocks: Bool = true,
        indexRunSegments: Int = 16,
        checkpointInterval: Int = 16_384
    ) {
        self.createIfMissing = createIfMissing
        self.segmentSize = segmentSize
        self.maxSegmentEvents = maxSegmentEvents
        self.durability = durability
        self.blockSize = blockSize
        self.blockCompressionLevel = blockCompressionLevel
        self.commitCompressionLevel = commitCompressionLevel
        self.dictionaryTrainingThreshold = dictionaryTrainingThreshold
        self.compactSealedSegments = compactSealedSegments
        self.columnarBlocks = columnarBlocks
        self.indexRunSegments = indexRunSegments
        self.checkpointInterval = checkpointInterval
    }
}
