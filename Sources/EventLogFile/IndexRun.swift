import EventLog
import PawtrailIO

/// The merged indexes of a run of consecutive sealed segments (files `runs/FIRST-LAST.ridx` and `.eidx`, named by
/// the first and last positions they cover): one stream index and one event-id index in place of one per segment.
///
/// Appends ask every sealed segment whether a new event id or a new stream already exists, so without runs their
/// cost grows with the number of sealed segments. The writer's upkeep merges each `indexRunSegments` sealed
/// segments into a run, which divides the lookups by that many. The segments' own index files stay: they answer
/// for segments no run covers yet, list a stream's positions, and are what `log inspect` shows.
///
/// The run's event-id index has the segments' format (``EventIDIndexFile``), with positions relative to the run's
/// first position; it is built from the segments' data, since a segment's `.eidx` keeps too few bits of each id's
/// hash to be merged into a larger index.
final class IndexRun {
    /// Where the run's first segment is in the store's list of sealed segments.
    let firstSegment: Int
    let segmentCount: Int
    let firstPosition: UInt64
    let lastPosition: UInt64
    let streams: RunStreamIndexFile
    /// The `.eidx` file's path.
    let idsPath: String
    /// The checksum of the `.eidx` body that the `.ridx` names (and the `.eidx` header carries, checked at load).
    let idsChecksum: UInt32
    /// The event-id index once checked (its whole file), which waits for the first id lookup that needs it (see
    /// ``LogState/eventIDProbes(of:)``): reads never do, and checking it at open read about 6.5 bytes an event
    /// the run covers in every process.
    var ids: EventIDIndexFile?
    /// Whether the `.eidx` body failed its check at first use: lookups then ask the run's segments.
    var idsUnusable = false

    init(firstSegment: Int, segmentCount: Int, firstPosition: UInt64, lastPosition: UInt64, streams: RunStreamIndexFile, idsPath: String, idsChecksum: UInt32) {
        self.firstSegment = firstSegment
        self.segmentCount = segmentCount
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.streams = streams
        self.idsPath = idsPath
        self.idsChecksum = idsChecksum
    }

    /// The number of events the run covers.
    var eventCount: UInt64 { lastPosition - firstPosition + 1 }

    /// The run's file name without extension: both positions in 20 digits.
    static func baseName(firstPosition: UInt64, lastPosition: UInt64) -> String {
        func digits(_ v: UInt64) -> String {
            let s = String(v)
            return String(repeating: "0", count: 20 - s.count) + s
        }
        return digits(firstPosition) + "-" + digits(lastPosition)
    }

    /// The positions a run file's name covers, `nil` for any other file (such as a temporary one).
    static func positions(ofFileName name: String) -> (first: UInt64, last: UInt64)? {
        guard name.utf8.count == 46, name.hasSuffix(".ridx") else { return nil }
        let u = Array(name.utf8)
        guard u[20] == UInt8(ascii: "-"), let first = UInt64(String(decoding: u[0..<20], as: UTF8.self)),
            let last = UInt64(String(decoding: u[21..<41], as: UTF8.self)), first <= last
        else { return nil }
        return (first, last)
    }

    /// What identifies a run's segments: a hash of each one's first position, event and commit counts, creation
    /// time and first and last recorded-at times, none of which compaction changes. Two stores (or one store
    /// before and after its segments were replaced) give different identities even where their positions match.
    static func identity<S: Sequence<SealedSegment>>(of segments: S) -> UInt64 {
        var w = ByteWriter()
        for s in segments {
            w.write(s.firstPosition)
            w.write(s.footer.eventCount)
            w.write(s.footer.commitCount)
            w.write(s.header.createdAt.microsecondsSinceEpoch)
            w.write(s.footer.firstRecordedAt.microsecondsSinceEpoch)
            w.write(s.footer.lastRecordedAt.microsecondsSinceEpoch)
        }
        return w.bytes.withUnsafeBytes { Hash128(bytes: $0).high }
    }

    /// Loads and checks a run's two files against the segments it claims to cover; `nil` when either is missing,
    /// damaged, or was built from other segments or another id index. Of the `.eidx` only the header is read here:
    /// its body is checked at the first lookup (``LogState/eventIDProbes(of:)``).
    ///
    /// - Parameters:
    ///   - directory: The `runs` directory.
    ///   - segments: The segments the run covers, as a slice of the store's sealed segments (its indices are
    ///     their places in that list).
    /// - Returns: The run, or `nil`.
    static func load(directory: String, segments: ArraySlice<SealedSegment>) -> IndexRun? {
        guard let first = segments.first, let last = segments.last else { return nil }
        let base = directory + "/" + baseName(firstPosition: first.firstPosition, lastPosition: last.lastPosition)
        let events = last.lastPosition - first.firstPosition + 1
        guard let idsChecksum = EventIDIndexFile.checksumIfHeaderMatches(path: base + ".eidx", segmentFirstPosition: first.firstPosition, segmentEvents: events),
            let streams = RunStreamIndexFile.load(
                path: base + ".ridx", runFirstPosition: first.firstPosition, runLastPosition: last.lastPosition, segmentCount: segments.count,
                identity: identity(of: segments),
                idsChecksum: idsChecksum)
        else { return nil }
        return IndexRun(
            firstSegment: segments.startIndex, segmentCount: segments.count, firstPosition: first.firstPosition,
            lastPosition: last.lastPosition, streams: streams, idsPath: base + ".eidx", idsChecksum: idsChecksum)
    }
}
