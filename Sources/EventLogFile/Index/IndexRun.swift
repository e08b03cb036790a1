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
    /// The identity of the segments the run was built from (``identity(of:)``), which its `.ridx` header carries.
    let identity: UInt64
    /// The `.ridx` file and its check. Checking it reads about 32 bytes a stream the run holds, which on a store of
    /// many short streams (an order or a booking each) is as much as the events: it waits for the first stream lookup
    /// (``LogState/runStreams(of:)``).
    var streamsFile: RunFileCheck<RunStreamIndexFile>
    /// The checksum of the `.eidx` body that the `.ridx` names (and the `.eidx` header carries, checked at load).
    let idsChecksum: UInt32
    /// The `.eidx` file and its check, which waits for the first id lookup (``LogState/eventIDProbes(of:)``): reads
    /// never make one, and checking it at open read about 6.5 bytes an event the run covers in every process.
    var idsFile: RunFileCheck<EventIDIndexFile>

    /// The stream index, once checked.
    var streams: RunStreamIndexFile? { streamsFile.index }
    /// The event-id index, once checked.
    var ids: EventIDIndexFile? { idsFile.index }

    init(
        firstSegment: Int, segmentCount: Int, firstPosition: UInt64, lastPosition: UInt64, identity: UInt64, streamsPath: String,
        idsPath: String, idsChecksum: UInt32
    ) {
        self.firstSegment = firstSegment
        self.segmentCount = segmentCount
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.identity = identity
        self.streamsFile = RunFileCheck(path: streamsPath)
        self.idsFile = RunFileCheck(path: idsPath)
        self.idsChecksum = idsChecksum
    }

    /// The number of events the run covers.
    var eventCount: UInt64 { lastPosition - firstPosition + 1 }

    /// Whether either file failed its check at first use: the next ``LogState/loadRuns()`` does not keep the run (it
    /// passes over a damaged file, which was removed, and takes up afresh one that could not be mapped).
    var isUnusable: Bool { streamsFile.failed || idsFile.failed }

    /// Where the run's segments are in the store's list of sealed segments.
    var segments: Range<Int> { firstSegment..<(firstSegment + segmentCount) }

    /// Opens the `.ridx` for lookups, unless done (its header and page table checked, its pages as lookups read them):
    /// `nil` when that fails (see ``LogState/runStreams(of:)``).
    func checkedStreams() -> RunStreamIndexFile? {
        streamsFile.check { m in
            RunStreamIndexFile.open(
                m, runFirstPosition: firstPosition, runLastPosition: lastPosition, segmentCount: segmentCount, identity: identity,
                idsChecksum: idsChecksum)
        }
    }

    /// Opens the `.eidx` for lookups, unless done: `nil` when that fails (see ``LogState/eventIDProbes(of:)``).
    func checkedIDs() -> EventIDIndexFile? {
        idsFile.check { m in
            EventIDIndexFile.open(m, segmentFirstPosition: firstPosition, segmentEvents: eventCount).flatMap { $0.checksum == idsChecksum ? $0 : nil }
        }
    }

    /// Takes the run out of use when a lookup found one of its files damaged (a page that fails its checksum): later
    /// lookups ask its segments, the damaged file is removed, and the writer's upkeep builds the run again.
    func markDamaged() {
        if let s = streamsFile.index { streamsFile.markDamaged(mapping: s.mapped) }
        if let i = idsFile.index { idsFile.markDamaged(mapping: i.mapped) }
        streamsFile.removeIfDamaged()
        idsFile.removeIfDamaged()
    }

    /// Removes both of the run's files when ``checkedStreams()`` or ``checkedIDs()`` read one and found it damaged
    /// (not when a file could not be mapped at all: see ``RunFileCheck``). For the writer that has just built the run,
    /// under the upkeep's lock, where no other process writes the run's files.
    func removeFilesIfDamaged() {
        guard streamsFile.damaged || idsFile.damaged else { return }
        try? FileSystem.removeFile(streamsFile.path)
        try? FileSystem.removeFile(idsFile.path)
    }

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
    /// damaged, or was built from other segments or another id index. Only the headers are read here: the bodies
    /// are checked at the first lookup that needs each (``LogState/runStreams(of:)``, ``LogState/eventIDProbes(of:)``),
    /// or by ``checkedStreams()`` and ``checkedIDs()``.
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
        let identity = identity(of: segments)
        guard let idsChecksum = EventIDIndexFile.checksumIfHeaderMatches(path: base + ".eidx", segmentFirstPosition: first.firstPosition, segmentEvents: events),
            RunStreamIndexFile.headerMatches(
                path: base + ".ridx", runFirstPosition: first.firstPosition, segmentCount: segments.count, identity: identity, idsChecksum: idsChecksum)
        else { return nil }
        return IndexRun(
            firstSegment: segments.startIndex, segmentCount: segments.count, firstPosition: first.firstPosition,
            lastPosition: last.lastPosition, identity: identity, streamsPath: base + ".ridx", idsPath: base + ".eidx", idsChecksum: idsChecksum)
    }
}
