import EventLog
import Foundation
import PawtrailIO

/// `log verify`: reads every byte of the store and checks it against its checksums, its indexes and itself.
///
/// Checks: segment headers; every frame's CRC32C, decompression and event decoding; gapless positions across
/// segments; every stream's versions 0, 1, 2, ... with no gap or repeat; event ids unique; sealed footers
/// (whole-segment checksum, counts, sparse index entries pointing at real frames); the `.sidx` and `.eidx`
/// files equal to indexes rebuilt from the data, and the active segment's checkpoint; index runs (`runs/`) equal to runs rebuilt from the segments; the
/// head file within the data; dictionaries' checksums.
struct StoreVerifier {
    let state: LogState
    /// For tests: runs right after the verifier lists the `runs` directory, where another process's upkeep may
    /// change it.
    var afterListingRuns: (() throws -> Void)?
    /// For tests: runs right after the verifier reads the head, where another process's writer may commit.
    var afterReadingHead: (() throws -> Void)?

    init(state: LogState, afterListingRuns: (() throws -> Void)? = nil, afterReadingHead: (() throws -> Void)? = nil) {
        self.state = state
        self.afterListingRuns = afterListingRuns
        self.afterReadingHead = afterReadingHead
    }

    /// The problem an error reading a file makes: a corruption's own offset and reason (its description names the file
    /// and offset again: "X at offset 0: corrupt data in X at offset 12: ..."), else the error as it reads at `offset`.
    private static func problem(_ error: any Error, file: String, offset: UInt64) -> VerifyReport.Problem {
        if let e = error as? EventStoreError, e.code == .corrupted { return .init(file: file, offset: e.offset ?? offset, message: e.reason) }
        return .init(file: file, offset: offset, message: "\(error)")
    }

    /// What is wrong with the active segment's checkpoint, if it has one: it must be byte for byte the checkpoint
    /// built from the segment's frames up to the end it covers. (A writer's upkeep may replace it meanwhile, with
    /// one as right: the file is mapped once, and the frames it covers never change.)
    private func checkpointProblem(segment: String, path: String, fd: FileDescriptor, firstPosition: UInt64) throws -> VerifyReport.Problem? {
        let checkpointPath = ActiveCheckpoint.path(ofSegment: path)
        let name = String(segment.dropLast(4)) + ".ckpt"
        // None, or removed meanwhile by a seal.
        guard let mapped = try? MappedFile(path: checkpointPath) else { return nil }
        guard let end = ActiveCheckpoint.coveredEnd(ofEncoded: mapped.bytes) else {
            return .init(file: name, offset: 0, message: "checkpoint is damaged (opens pass over it; the writer's next open removes it)")
        }
        let expected: [UInt8]?
        do {
            expected = try ActiveCheckpoint.build(
                segment: segment, fd: fd, firstPosition: firstPosition, upTo: end, previous: nil, decompressor: ZstdDecompressor(),
                dictionaries: state.dictionaries)
        } catch {
            return .init(file: name, offset: nil, message: "checkpoint covers data up to byte \(end) that does not read: \(error)")
        }
        guard let expected, mapped.bytes.elementsEqual(expected) else {
            return .init(file: name, offset: nil, message: "checkpoint does not match the segment's data up to byte \(end)")
        }
        return nil
    }

    /// Runs `body` holding the writer lock, if no writer holds it now; `nil` when one does. What looks unfinished
    /// on disk (bytes past the head, a sealed segment's index files not yet written) is damage only then; otherwise
    /// it may be a writer's work in progress.
    private func whileNoWriter<T>(_ body: () throws -> T) throws -> T? {
        let path = state.root + "/" + LogFormat.lockName
        let lock: FileDescriptor
        do {
            lock = try FileDescriptor.open(path, .readWriteCreate)
        } catch let e where [EROFS, EACCES, EPERM].contains(e.errno) {
            // This process may not write the lock file, but another may (its owner): the lock is taken on the file
            // opened for reading, which `flock` allows. No lock file at all means no writer ever opened the store.
            do {
                lock = try FileDescriptor.open(path, .readOnly)
            } catch let e where e.errno == ENOENT {
                return try body()
            }
        }
        guard try lock.lockExclusive(wait: false) else { return nil }
        defer { try? lock.unlock() }
        return try body()
    }

    func run() throws -> VerifyReport {
        var problems: [VerifyReport.Problem] = []
        var events: UInt64 = 0
        var indexEntries: UInt64 = 0
        var nextPosition: UInt64 = 0
        // Ids are proven unique, and versions to go on from segment to segment, by merging the segments' sorted
        // indexes afterwards, not by holding every id and every stream's last version.
        var idSources: [DuplicateIDFinder.Source] = []
        var streamSources: [StreamSource] = []
        var segmentStarts: [(first: UInt64, name: String)] = []
        // Once a damaged part of the log is skipped, the versions that follow cannot be checked against it:
        // report the damage once rather than every version after it.
        var skippedDamage = false
        /// Whether the previous segment's header did not decode, so that this one's start cannot be checked.
        var startUnknown = false
        let dir = state.segmentsDirectory
        // The head first, then the segments: a writer at work only moves the head forward, so data listed and read
        // after it reaches at least as far (read the other way round, a segment created between the two made the
        // head look ahead of the data).
        let head = try state.peekHead()
        try afterReadingHead?()
        let names = try FileSystem.contentsOfDirectory(dir).filter { LogFormat.firstPosition(ofSegmentName: $0) != nil }
        for id in try state.dictionaries.idsOnDisk() {
            do { _ = try state.dictionaries.get(id) } catch { problems.append(Self.problem(error, file: "dictionaries/\(DictionarySet.fileName(id))", offset: 0)) }
        }
        segments: for (i, name) in names.enumerated() {
            let path = dir + "/" + name
            // The last segment may be one the writer rolled to after the head above was read, and may be writing to
            // now: the head read again here, before the segment, names it with its durable end (the data read after
            // reaches at least as far). The head above still bounds the log's end at the last check.
            let segmentHead = i == names.count - 1 ? try state.peekHead() ?? head : head
            let fd = try FileDescriptor.open(path, .readOnly)
            let size = try fd.size()
            let header: SegmentHeader
            do {
                header = try SegmentHeader.decode(try fd.read(at: 0, count: LogFormat.segmentHeaderSize), file: name)
            } catch {
                problems.append(Self.problem(error, file: name, offset: 0))
                skippedDamage = true
                startUnknown = true
                continue
            }
            // After a segment whose header did not decode, where the log goes on is unknown: the next segment is
            // taken from where it says it starts, not reported as a gap that only the damage made.
            if startUnknown {
                nextPosition = header.firstPosition
                startUnknown = false
            }
            if header.firstPosition != nextPosition {
                problems.append(.init(file: name, offset: 0, message: "segment starts at position \(header.firstPosition), expected \(nextPosition) (gap or overlap)"))
                nextPosition = header.firstPosition
                skippedDamage = true
            }
            var footer: SegmentFooter?
            var end = size
            // Zeros past the head's end offset are preallocated space; before it they are damage.
            let headEnd = segmentHead.flatMap { $0.activeFirstPosition == header.firstPosition ? $0.endOffset : nil } ?? UInt64(LogFormat.segmentHeaderSize)
            if let t = try SegmentFooter.readTrailer(fd: fd, fileSize: size) {
                do {
                    footer = try SegmentFooter.read(fd: fd, file: name, footerOffset: t.footerOffset, footerLength: t.footerLength)
                    end = footer!.dataEnd
                } catch {
                    problems.append(Self.problem(error, file: name, offset: t.footerOffset))
                    continue segments
                }
            } else if i < names.count - 1 {
                problems.append(.init(file: name, offset: size, message: "segment has no valid footer but is not the last segment"))
            } else if let h = segmentHead, h.activeFirstPosition == header.firstPosition, h.endOffset < size {
                end = h.endOffset
                // Bytes past the durable end are a commit in flight while a writer works; otherwise a torn tail.
                // Only bytes where the next frame would start mean a torn write; stray bytes further into the
                // preallocated zeros are overwritten by later commits and are harmless.
                let next = try fd.read(at: h.endOffset, count: min(4, Int(size - h.endOffset)))
                // Nobody writes now, but a writer may have finished that very commit (moving the head past it) and let
                // go of the lock after the bytes were read: only a head still where it was means a tear.
                if next.contains(where: { $0 != 0 }), let settled = try whileNoWriter({ try state.peekHead() }),
                    settled?.activeFirstPosition == h.activeFirstPosition, settled?.endOffset == h.endOffset
                {
                    problems.append(.init(file: name, offset: h.endOffset, message: "\(size - h.endOffset) bytes past the durable end (a torn write; the next writer cuts it off)"))
                }
            }
            var crc = CRC32C()
            crc.update(try fd.read(at: 0, count: LogFormat.segmentHeaderSize))
            var frameOffsets = Set<UInt64>()
            var segmentEvents: UInt64 = 0
            var commits: UInt64 = 0
            // Each stream's first version in the segment, its positions, and its last version so far: a gap inside
            // a segment is reported once, and the versions after it are checked against the last one, as the next
            // segment's are (see `StreamSource.resume`).
            var streams: [StreamID: (first: UInt64, positions: [UInt64], last: UInt64)] = [:]
            var order: [StreamID] = []
            /// Takes up the segment's stream index for the check across segments, unless damage came before it.
            func addStreamSource(_ index: StreamIndexFile) {
                guard !skippedDamage else { return }
                var resume: [StreamSource.Resume] = []
                for stream in order {
                    let (first, positions, last) = streams[stream]!
                    if last != first &+ UInt64(positions.count) &- 1 {
                        resume.append(.init(hash: Hash128(stream.rawValue), firstVersion: first, next: last &+ 1))
                    }
                }
                streamSources.append(StreamSource(name: name, index: index, resume: resume))
            }
            /// The stream index the data read so far gives, as the file's bytes.
            func streamIndexBytes() -> [UInt8] {
                StreamIndexFile.encode(segmentFirstPosition: header.firstPosition, streams: order.map { ($0, streams[$0]!.first, streams[$0]!.positions) })
            }
            /// Takes up the stream index the data gives (in memory) for the check across segments.
            func addStreamSourceFromData(_ bytes: [UInt8]) {
                let events = order.reduce(0) { $0 + UInt64(streams[$1]!.positions.count) }
                if let index = StreamIndexFile.load(MappedFile(copying: bytes, path: name), segmentFirstPosition: header.firstPosition, segmentEvents: events) {
                    addStreamSource(index)
                }
            }
            /// The data is damaged from here on: what was read of the segment before it still counts (a gap there
            /// is reported), what follows in the log is left out.
            func skipDamage() {
                addStreamSourceFromData(streamIndexBytes())
                skippedDamage = true
                // A sealed segment's footer, checked on its own, still says where the segment ends: the next segment is
                // checked against that, not reported as a gap or overlap that only the skipped events made.
                if let footer { nextPosition = header.firstPosition &+ footer.eventCount }
            }
            var idEntries: [(key: UInt64, position: UInt64)] = []
            var scanner = FrameScanner(fd: fd, from: UInt64(LogFormat.segmentHeaderSize), to: end)
            let decompressor = ZstdDecompressor()
            while true {
                var frameProblem: String?
                var payload: [UInt8] = []
                let (found, stop) = try scanner.next { body, h in
                    do {
                        payload = try FrameIO.payload(of: body, header: h, decompressor: decompressor, dictionaries: state.dictionaries)
                    } catch {
                        frameProblem = "payload does not decompress: \(error)"
                    }
                }
                if let stop {
                    if case .zeroFill = stop, footer == nil, stop.offset >= headEnd,
                        try fd.read(at: stop.offset, count: Int(end - stop.offset)).allSatisfy({ $0 == 0 })
                    {
                        break  // preallocated space after the last commit of the active segment
                    }
                    problems.append(.init(file: name, offset: stop.offset, message: stop.reason))
                    skipDamage()
                    continue segments
                }
                guard let f = found else { break }
                let frameBytes = try fd.read(at: f.offset, count: f.totalLength)
                crc.update(frameBytes)
                frameOffsets.insert(f.offset)
                if let frameProblem {
                    problems.append(.init(file: name, offset: f.offset, message: frameProblem))
                    skipDamage()
                    continue segments
                }
                let expectedType: FrameType = header.layout == .blocks ? .block : .commit
                if f.header.type != expectedType {
                    problems.append(.init(file: name, offset: f.offset, message: "a \(f.header.type == .block ? "block" : "commit") frame in a segment of \(header.layout == .blocks ? "blocks" : "single commits")"))
                    skipDamage()
                    continue segments
                }
                if f.header.firstPosition != nextPosition {
                    problems.append(.init(file: name, offset: f.offset, message: "frame starts at position \(f.header.firstPosition), expected \(nextPosition)"))
                }
                // Readable here, but not by every reader the header admits: one of those would fail on it.
                if f.header.codec.minimumReaderVersion > header.minimumReaderVersion {
                    problems.append(.init(
                        file: name, offset: f.offset,
                        message: "frame is stored for readers of format \(f.header.codec.minimumReaderVersion) or newer, but the segment header admits readers of format \(header.minimumReaderVersion)"))
                }
                do {
                    try payload.withUnsafeBytes { raw in
                        try CommitCodec.walkCommits(raw, header: f.header) { _ in commits += 1 }
                        try CommitCodec.walkEvents(raw, header: f.header) { e in
                            let stream = e.streamID()
                            // Within the segment here; a stream's first version in it is checked against the
                            // segments before by the merge below.
                            if let last = streams[stream]?.last {
                                let expected = last &+ 1
                                if e.version != expected {
                                    problems.append(.init(file: name, offset: f.offset, message: "stream '\(stream)' has version \(e.version) at position \(e.position), expected \(expected)"))
                                }
                            } else {
                                order.append(stream)
                            }
                            streams[stream, default: (e.version, [], e.version)].last = e.version
                            streams[stream]!.positions.append(e.position)
                            idEntries.append((EventIDIndexFile.key(e.id), e.position))
                            return true
                        }
                    }
                } catch {
                    problems.append(.init(file: name, offset: f.offset, message: "events do not decode: \(error)"))
                    skipDamage()
                    continue segments
                }
                nextPosition = f.header.firstPosition + UInt64(f.header.eventCount)
                segmentEvents += UInt64(f.header.eventCount)
                events += UInt64(f.header.eventCount)
            }
            segmentStarts.append((header.firstPosition, name))
            let expectedStreams = streamIndexBytes()
            guard let footer else {
                // The active segment: its ids and streams from the data (bounded by the roll), whole.
                idSources.append(.keys(idEntries.sorted { ($0.key, $0.position) < ($1.key, $1.position) }))
                addStreamSourceFromData(expectedStreams)
                if let problem = try checkpointProblem(segment: name, path: path, fd: fd, firstPosition: header.firstPosition) {
                    problems.append(problem)
                }
                continue
            }
            if crc.value != footer.checksum {
                problems.append(.init(file: name, offset: 0, message: "whole-segment checksum mismatch (footer \(footer.checksum), data \(crc.value))"))
            }
            if footer.eventCount != segmentEvents || footer.lastPosition + 1 != nextPosition || footer.commitCount != commits {
                problems.append(.init(file: name, offset: footer.dataEnd, message: "footer counts \(footer.eventCount) events in \(footer.commitCount) commits up to position \(footer.lastPosition); the data holds \(segmentEvents) in \(commits)"))
            }
            for entry in footer.index where !frameOffsets.contains(entry.offset) {
                problems.append(.init(file: name, offset: entry.offset, message: "footer index entry for position \(entry.firstPosition) points at no frame"))
            }
            indexEntries += UInt64(footer.index.count)
            let base = String(path.dropLast(4))
            let expectedIDs = EventIDIndexFile.encode(segmentFirstPosition: header.firstPosition, ids: idEntries)
            var idSourceAdded = false
            var streamSourceAdded = false
            for (suffix, expected, count) in [(".sidx", expectedStreams, order.count + Int(segmentEvents)), (".eidx", expectedIDs, Int(segmentEvents))] {
                let indexName = String(name.dropLast(4)) + suffix
                guard FileSystem.exists(base + suffix) else {
                    // A writer seals a segment (footer first) before it writes its index files.
                    if try whileNoWriter({}) != nil {
                        problems.append(.init(file: indexName, offset: nil, message: "index file is missing (the next open rebuilds it)"))
                    }
                    continue
                }
                // Read once, mapped: compared with the data's index, then (when equal) merged from where it lies.
                let actual = try MappedFile(path: base + suffix)
                let matches = actual.bytes.elementsEqual(expected)
                if matches, suffix == ".sidx",
                    let index = StreamIndexFile.load(actual, segmentFirstPosition: header.firstPosition, segmentEvents: footer.eventCount)
                {
                    addStreamSource(index)
                    streamSourceAdded = true
                }
                if matches, suffix == ".eidx",
                    let index = EventIDIndexFile.load(actual, segmentFirstPosition: header.firstPosition, segmentEvents: footer.eventCount)
                {
                    idSources.append(.index(index))
                    idSourceAdded = true
                }
                if !matches {
                    let at = zip(actual.bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.bytes.count, expected.count)
                    problems.append(.init(file: indexName, offset: UInt64(at), message: "index does not match the segment's data (derived data: remove the file, and the next open writes it again)"))
                } else {
                    indexEntries += UInt64(count)
                }
            }
            if !idSourceAdded, let index = EventIDIndexFile.load(
                MappedFile(copying: expectedIDs, path: base + ".eidx"), segmentFirstPosition: header.firstPosition, segmentEvents: segmentEvents)
            {
                // The file is missing or wrong: the index the data gives (only such segments cost heap).
                idSources.append(.index(index))
            }
            // Likewise the stream index.
            if !streamSourceAdded { addStreamSourceFromData(expectedStreams) }
        }
        // Past damaged data the versions that follow cannot be checked against it (the damage is reported once,
        // not every version after it): the segments from the first damaged one on are left out.
        try checkVersionsAcrossSegments(streamSources, into: &problems)
        try DuplicateIDFinder.find(idSources, idAt: { (try? state.event(at: $0))?.id }) { id, earlier, later in
            let segment = segmentStarts.last { $0.first <= later }?.name ?? ""
            problems.append(.init(file: segment, offset: nil, message: "event id \(id.uuidString.lowercased()) appears twice (positions \(earlier) and \(later))"))
        }
        // The runs are checked against the stream indexes checked above (the data's, where a file did not match it).
        let checkedStreams = Dictionary(streamSources.map { ($0.name, $0.index) }, uniquingKeysWith: { first, _ in first })
        indexEntries += try verifyRuns(&problems, checkedStreams: checkedStreams)
        if let h = head, h.nextPosition > nextPosition {
            problems.append(.init(file: LogFormat.headName, offset: 0, message: "head says the log ends before position \(h.nextPosition); the data ends before \(nextPosition)"))
        }
        return VerifyReport(segments: names.count, events: events, indexEntries: indexEntries, problems: problems)
    }

    /// A segment's stream index for the check of versions across segments.
    struct StreamSource {
        /// Where a stream's versions in the segment have a gap (reported when the segment was read): the version
        /// after its last one there, which the next segment holding it should start at.
        struct Resume {
            var hash: Hash128
            var firstVersion: UInt64
            var next: UInt64
        }

        var name: String
        var index: StreamIndexFile
        /// Only for streams with a gap inside the segment (damaged data): otherwise the index's first version and
        /// count give the next version.
        var resume: [Resume]
    }

    /// Checks that each stream's first version in a segment follows its last version in the segments before (0
    /// where it first appears), by merging the segments' stream indexes by hash: memory for one cursor a segment,
    /// not for every stream. The indexes are the files where they match the data, else the data's own.
    ///
    /// Two streams sharing a 128-bit hash would look like one stream with gaps; a gap is therefore confirmed by
    /// reading the streams' ids before it is reported, and the streams are then followed each on its own.
    private func checkVersionsAcrossSegments(_ sources: [StreamSource], into problems: inout [VerifyReport.Problem]) throws {
        typealias Link = (segment: Int, entry: StreamIndexFile.Entry)
        /// The version a stream's next segment should start at.
        func next(after link: Link) -> UInt64 {
            sources[link.segment].resume.first { $0.hash == link.entry.hash && $0.firstVersion == link.entry.firstVersion }?.next
                ?? link.entry.firstVersion + UInt64(link.entry.count)
        }
        /// The links of a stream's chain that do not start where the one before ended, with the version expected.
        func gaps(_ chain: [Link]) -> [(link: Link, expected: UInt64)] {
            var expected: UInt64 = 0
            var out: [(link: Link, expected: UInt64)] = []
            for link in chain {
                if link.entry.firstVersion != expected { out.append((link, expected)) }
                expected = next(after: link)
            }
            return out
        }
        func report(_ chain: [Link], stream: String) {
            for (link, expected) in gaps(chain) {
                let position = (try? sources[link.segment].index.firstPosition(of: link.entry)).map(String.init) ?? "?"
                problems.append(.init(
                    file: sources[link.segment].name, offset: nil,
                    message: "stream '\(stream)' has version \(link.entry.firstVersion) at position \(position), expected \(expected)"))
            }
        }
        try HashMerge.forEachHash(sources.map { HashMerge.Source($0.index) }) { hash, occurrences in
            let chain = try occurrences.map { (segment: $0.source, entry: try sources[$0.source].index.entry(at: $0.entry)) }
            guard !gaps(chain).isEmpty else { return }
            // The stream of each entry, from its first event; an unreadable one is damage reported elsewhere.
            var byStream: [(stream: String, chain: [Link])] = []
            for link in chain {
                let index = sources[link.segment].index
                let stream = (try? index.firstPosition(of: link.entry)).flatMap { try? state.event(at: $0).stream.rawValue } ?? "hash \(hash)"
                if let i = byStream.firstIndex(where: { $0.stream == stream }) {
                    byStream[i].chain.append(link)
                } else {
                    byStream.append((stream, [link]))
                }
            }
            for (stream, chain) in byStream { report(chain, stream: stream) }
        }
    }

    /// Checks every index run file against a run rebuilt from its segments; returns the entries checked. A run
    /// over damaged segments is not rebuilt (the segments' damage is reported already).
    ///
    /// A writer may be at work meanwhile: its upkeep writes a run's `.eidx`, then its `.ridx`, removes unused run
    /// files, and builds runs over segments sealed after this view was taken (the data is read before the runs).
    /// A run reaching past this view's sealed segments is left for a later verify. The run files are listed and
    /// checked holding the upkeep's lock, so that no upkeep changes them in between, and a missing file is then
    /// damage; when an upkeep holds the lock, a missing or vanished file is its work, not reported. (Asking for
    /// the lock only on finding a file gone would take a file an upkeep removed and was done with for a missing
    /// one.)
    private func verifyRuns(_ problems: inout [VerifyReport.Problem], checkedStreams: [String: StreamIndexFile]) throws -> UInt64 {
        guard FileSystem.exists(state.runsDirectory) else { return 0 }
        var checked: UInt64 = 0
        let builder = IndexRunBuilder(dictionaries: state.dictionaries)
        let sealedEnd = state.sealed.last?.lastPosition
        // A lock file that cannot be opened (a read-only store) tells nothing: missing files are then not reported.
        // Held to the end, not just while listing: each run's files are read when it is checked, one run at a time,
        // so that verifying a large store does not hold all of its runs in memory.
        let lock = try? FileDescriptor.open(state.root + "/" + LogFormat.compactionLockName, .readWriteCreate)
        let upkeepIdle = (try? lock?.lockExclusive(wait: false)) == true
        defer { if upkeepIdle { try? lock?.unlock() } }
        let names: [String]
        do {
            names = try FileSystem.contentsOfDirectory(state.runsDirectory).sorted()
        } catch {
            problems.append(.init(file: LogFormat.runsDirectory, offset: nil, message: "index runs cannot be listed (lookups go without them): \(error)"))
            return 0
        }
        try afterListingRuns?()
        let listed = Set(names)
        for name in names {
            let file = LogFormat.runsDirectory + "/" + name
            guard let (first, last) = IndexRun.positions(ofFileName: name) else {
                if name.hasSuffix(".eidx"), let (_, last) = IndexRun.positions(ofFileName: String(name.dropLast(5)) + ".ridx"),
                    sealedEnd.map({ last <= $0 }) ?? false,
                    !listed.contains(String(name.dropLast(5)) + ".ridx"), upkeepIdle
                {
                    problems.append(.init(file: file, offset: nil, message: "index run has no .ridx file (the writer builds it again)"))
                }
                continue
            }
            guard sealedEnd.map({ last <= $0 }) ?? false else { continue }
            guard let i = state.sealed.firstIndex(where: { $0.firstPosition == first }),
                let j = state.sealed.firstIndex(where: { $0.lastPosition == last }), i <= j
            else {
                problems.append(.init(file: file, offset: nil, message: "index run covers positions \(first)-\(last), which do not start and end at sealed segments"))
                continue
            }
            // Segments past damaged data have no stream source: their own files, if they pass their checks.
            let segments = Array(state.sealed[i...j])
            let streams = segments.compactMap { s in checkedStreams[s.name] ?? s.checkedStreams ?? s.loadStreamIndexFile() }
            guard streams.count == segments.count, let expected = try? builder.build(segments, streams: streams) else { continue }
            for (suffix, bytes) in [(".ridx", expected.streams), (".eidx", expected.ids)] {
                let runName = LogFormat.runsDirectory + "/" + String(name.dropLast(5)) + suffix
                guard let actual = try? FileSystem.readFile(state.runsDirectory + "/" + String(name.dropLast(5)) + suffix) else {
                    if upkeepIdle {
                        problems.append(.init(file: runName, offset: nil, message: "index run file is missing (the writer builds it again)"))
                    }
                    continue
                }
                if actual != bytes {
                    let at = zip(actual, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, bytes.count)
                    problems.append(.init(file: runName, offset: UInt64(at), message: "index run does not match its segments (lookups pass it over; the writer builds it again)"))
                } else {
                    checked += UInt64(suffix == ".eidx" ? Int(last - first + 1) : j - i + 1)
                }
            }
        }
        return checked
    }
}
