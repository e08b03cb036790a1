/// Constants of the on-disk format, version 3 (version 1 had no columnar blocks, version 2 no columnar commits nor
/// columns compressed by groups; this build reads all three). Every multi-byte integer is little-endian.
///
/// A store directory holds:
/// - `pawtrail.store`: the manifest (magic, format version, oldest compatible reader, creation time, store id);
/// - `writer.lock`: `flock`ed by the one process writing at a time;
/// - `compaction.lock`: `flock`ed by the one process at the sealed segments' upkeep (compaction and index runs);
/// - `head`: where the durable log ends (active segment, end offset, next position), rewritten after each flush;
/// - `segments/<first position, 20 digits>.seg`: the log, plus `.sidx` (stream index) and `.eidx` (event-id
///   index) beside each sealed segment, and `.ckpt` (a checkpoint of its index, see ``ActiveCheckpoint``) beside the
///   active one;
/// - `dictionaries/<id>.zdict`: zstd dictionaries trained from the store's own events;
/// - `runs/<first position>-<last position>.ridx` and `.eidx` (both positions in 20 digits): index runs, the merged
///   stream and event-id indexes of consecutive sealed segments (derived data, see ``IndexRun``);
/// - `snapshots/streams.sqlite`: snapshots of stream states for decisions (a cache, see ``SQLiteSnapshotStore``);
/// - `projections/`: the read models' states (see the projection runtime).
enum LogFormat {
    /// The format this build writes.
    static let formatVersion: UInt16 = 3
    /// The oldest reader that can read what this build writes: version 2 readers do not know columns compressed by
    /// groups (``FrameCodec/columnarParts``), nor version 1 readers columnar blocks at all, so segments and stores
    /// this build creates say so in their headers. A segment an older build created holds no frame it cannot read:
    /// commits appended to it are stored as rows (see ``columnarPartsVersion``).
    static let minimumReaderVersion: UInt16 = 3
    /// The newest format this build can read.
    static let readableVersion: UInt16 = 3
    /// The oldest reader a segment's header must name for ``FrameCodec/columnarParts`` frames to be written into it.
    static let columnarPartsVersion: UInt16 = 3

    static let manifestName = "pawtrail.store"
    static let lockName = "writer.lock"
    static let compactionLockName = "compaction.lock"
    static let headName = "head"
    static let segmentsDirectory = "segments"
    static let dictionariesDirectory = "dictionaries"
    /// Index runs: the merged indexes of consecutive sealed segments (derived data, see ``IndexRun``).
    static let runsDirectory = "runs"
    /// Snapshots of stream states (a cache, see ``SQLiteSnapshotStore``).
    static let snapshotsDirectory = "snapshots"

    static let manifestMagic: [UInt8] = Array("PAWTRAIL".utf8)
    static let segmentMagic: [UInt8] = Array("PAWTSEG1".utf8)
    static let trailerMagic: [UInt8] = Array("PAWTSEAL".utf8)
    static let headMagic: UInt32 = 0x4441_4548  // "HEAD"
    static let streamIndexMagic: UInt32 = 0x5844_4953  // "SIDX"
    static let eventIDIndexMagic: UInt32 = 0x5844_4945  // "EIDX"
    static let runStreamIndexMagic: UInt32 = 0x5844_4952  // "RIDX"
    static let checkpointMagic: UInt32 = 0x5450_4B43  // "CKPT"

    /// Segment header size; frames start right after it.
    static let segmentHeaderSize = 64
    /// Frame = u32 body length, body, u32 CRC32C of the body.
    static let frameOverhead = 8
    /// The fixed part of a frame body before the compressed payload.
    static let frameHeaderSize = 44
    /// The fixed trailer at the very end of a sealed segment, pointing at its footer.
    static let trailerSize = 24
    /// The largest frame body accepted when reading (a 10,000-event append of 1 MiB events compresses below this
    /// only in theory; appends are limited to 64 MiB of events, so 96 MiB bounds any honest frame).
    static let maxFrameBody = 96 << 20
    /// The largest uncompressed payload a reader accepts: an append holds at most 64 MiB of events and 10,000
    /// envelopes (each under 500 bytes), and a compacted block about 1 MiB more than its last commit. A frame header
    /// that claims more is damage, refused before anything is allocated for it (a crafted frame with a valid
    /// checksum could otherwise ask for gigabytes).
    static let maxPayloadLength = 128 << 20
    /// A sealed segment's footer indexes a frame at least this often, for position and time lookups.
    static let sparseIndexInterval = 64 << 10

    static func segmentName(firstPosition: UInt64) -> String {
        let digits = String(firstPosition)
        return String(repeating: "0", count: 20 - digits.count) + digits + ".seg"
    }

    static func firstPosition(ofSegmentName name: String) -> UInt64? {
        guard name.hasSuffix(".seg"), name.utf8.count == 24 else { return nil }
        return UInt64(name.prefix(20))
    }
}

/// The kind of a frame.
enum FrameType: UInt8 {
    /// One commit (one append call), in the active layout.
    case commit = 1
    /// Several whole commits, in the compacted layout.
    case block = 2
    /// The footer of a sealed segment.
    case footer = 3
}

/// How a frame's payload is stored.
enum FrameCodec: UInt8 {
    case none = 0
    case zstd = 1
    case zstdDictionary = 2
    /// Laid out by columns (``ColumnarPayload``), then zstd-compressed: the stored bytes are the columnar length
    /// (varint) and the zstd frames.
    case columnarZstd = 3
    /// The same, compressed with the dictionary the header names.
    case columnarZstdDictionary = 4
    /// Laid out by columns in one or more parts, each part's columns compressed by groups (see ``ColumnarParts``):
    /// compacted blocks, and large commits (format 3).
    case columnarParts = 5

    /// The oldest reader that can read a frame stored so: a segment holding one must name that reader or a newer one
    /// in its header (`log verify` checks it).
    var minimumReaderVersion: UInt16 {
        switch self {
        case .none, .zstd, .zstdDictionary: 1
        case .columnarZstd, .columnarZstdDictionary: 2
        case .columnarParts: LogFormat.columnarPartsVersion
        }
    }
}

/// The layout of a segment file, from its header.
enum SegmentLayout: UInt8 {
    /// Commit frames, appended one per commit; sealed with a footer when full.
    case commits = 0
    /// Rewritten after sealing into large compressed blocks of whole commits.
    case blocks = 1
}
