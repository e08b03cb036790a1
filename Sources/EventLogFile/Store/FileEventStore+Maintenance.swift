public import EventLog
import Foundation
import PawtrailIO

extension FileEventStore {
    /// Size and content figures.
    ///
    /// - Returns: The stats.
    /// - Throws: An I/O or corruption error.
    public func stats() throws -> LogStats {
        try withState(writer: false) { s in
            try s.requireIntact()
            // A run lists each of its streams once, where its segments list a busy stream in each of them. The
            // indexes are merged by hash, one cursor each, so counting holds no set of every stream.
            var sources: [HashMerge.Source] = []
            for run in s.runs {
                if let streams = s.runStreams(of: run) {
                    sources.append(HashMerge.Source(streams))
                } else {
                    sources += try s.sealed[run.segments].map { HashMerge.Source(try s.streamIndex(of: $0)) }
                }
            }
            sources += try s.sealed[s.coveredSegments...].map { HashMerge.Source(try s.streamIndex(of: $0)) }
            if let a = s.active { sources.append(HashMerge.Source(sorted: a.streamHashes().sorted())) }
            let streamCount = try HashMerge.distinctCount(sources)
            var segmentBytes: UInt64 = 0
            var indexBytes: UInt64 = 0
            var diskBytes: UInt64 = 0
            for name in try FileSystem.contentsOfDirectory(s.segmentsDirectory) {
                let size = Self.fileSize(s.segmentsDirectory + "/" + name)
                diskBytes += size
                if name.hasSuffix(".seg") { segmentBytes += size } else if name.hasSuffix(".sidx") || name.hasSuffix(".eidx") { indexBytes += size }
            }
            for name in try FileSystem.contentsOfDirectory(path) where name != LogFormat.segmentsDirectory {
                let p = path + "/" + name
                if FileSystem.isDirectory(p) {
                    for inner in try FileSystem.contentsOfDirectory(p) {
                        let size = Self.fileSize(p + "/" + inner)
                        diskBytes += size
                        if name == LogFormat.runsDirectory { indexBytes += size }
                    }
                } else {
                    diskBytes += Self.fileSize(p)
                }
            }
            let next = s.nextPosition
            let firstAt = s.sealed.first?.footer.firstRecordedAt ?? s.active?.frames.first?.recordedAt
            var preallocated: UInt64 = 0
            if let a = s.active {
                let size = try a.fd.size()
                preallocated = size > a.endOffset ? size - a.endOffset : 0
            }
            var stats = LogStats(
                segments: s.sealed.count + (s.active == nil ? 0 : 1),
                compactedSegments: s.sealed.filter { $0.header.layout == .blocks }.count,
                events: next, streams: UInt64(streamCount), firstPosition: next == 0 ? nil : 0,
                lastPosition: next == 0 ? nil : next - 1, firstRecordedAt: next == 0 ? nil : firstAt,
                lastRecordedAt: next == 0 ? nil : s.lastRecordedAt, rawBytes: s.rawBytes, diskBytes: diskBytes,
                segmentBytes: segmentBytes, indexBytes: indexBytes, dictionaries: s.dictionaries.count)
            stats.preallocatedBytes = preallocated
            stats.indexRuns = s.runs.count
            stats.indexedSegments = s.coveredSegments
            return stats
        }
    }

    static func fileSize(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_size) : 0
    }

    /// Checks every checksum, every index entry against the data, and the positions and versions for gaps.
    ///
    /// Index files this store could not save when it sealed or loaded a segment are saved first.
    ///
    /// - Returns: The report; problems do not throw.
    /// - Throws: Only when the store cannot be read at all.
    public func verify() throws -> VerifyReport {
        try withState(writer: false) { s in
            // This process's own index files that failed to save earlier are written first: their absence is a
            // state the store heals, not damage to report.
            s.saveUnsavedIndexFiles()
            return try StoreVerifier(state: s).run()
        }
    }

    /// Verifies a store that does not open because of damage (a segment header, a sealed segment cut short or
    /// missing): the same checks of the files, without the index runs, which need an opened store's view.
    ///
    /// - Parameter path: The store directory.
    /// - Returns: The report.
    /// - Throws: When the store cannot be read at all (no store, a damaged manifest).
    public static func verifyWithoutOpening(path: String) throws -> VerifyReport {
        do {
            _ = try StoreManifest.openOrCreate(root: path, create: false)
            return try StoreVerifier(state: LogState(root: path, options: FileEventStoreOptions())).run()
        } catch let e as SystemError {
            throw EventStoreError(e)
        }
    }

    /// Lays open one segment: header, frames, footer and index.
    ///
    /// - Parameter segment: The segment's file name (`00000000000000000000.seg`), with or without `.seg`, or a
    ///   position it holds.
    /// - Returns: The inspection.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` when there is no such segment, or an I/O error.
    public func inspect(segment: String) throws -> SegmentInspection {
        try withState(writer: false) { s in
            let name = try Self.segmentName(segment, in: s, logEnd: s.nextPosition, path: path)
            return try SegmentInspector(state: s).inspect(name: name)
        }
    }

    /// Lays open one segment of a store that does not open (damage in a segment header, the head or the active
    /// segment), from its files alone: what `log inspect` falls back on, so that the segments around the damage can
    /// still be looked at. A position names the last segment starting at or before it, and the active segment's
    /// index counts are not known (0).
    ///
    /// - Parameters:
    ///   - path: The store directory.
    ///   - segment: As for ``inspect(segment:)``.
    /// - Returns: The inspection.
    /// - Throws: ``EventStoreError/storeNotFound(location:)``, ``EventStoreError/invalidRequest(_:)`` when there is no such
    ///   segment, ``EventStoreError/corrupted(location:offset:reason:)`` when the segment's own header is damaged, or an
    ///   I/O error.
    public static func inspectWithoutOpening(path: String, segment: String) throws -> SegmentInspection {
        do {
            _ = try StoreManifest.openOrCreate(root: path, create: false)
            let state = LogState(root: path, options: FileEventStoreOptions())
            return try SegmentInspector(state: state).inspect(name: try segmentName(segment, in: state, logEnd: nil, path: path))
        } catch let e as SystemError {
            throw EventStoreError(e)
        }
    }

    /// The file name of the segment `segment` names: a file name, with or without `.seg`, or a position it holds.
    ///
    /// - Parameter logEnd: The next position of the log, when known: a position at or past it names no segment.
    private static func segmentName(_ segment: String, in s: LogState, logEnd: UInt64?, path: String) throws -> String {
        let names = try FileSystem.contentsOfDirectory(s.segmentsDirectory).filter { $0.hasSuffix(".seg") }
        let wanted: String?
        if names.contains(segment) {
            wanted = segment
        } else if names.contains(segment + ".seg") {
            wanted = segment + ".seg"
        } else if let p = UInt64(decimal: segment) {
            // The segment that holds the position: the last to start at or before it, if the log reaches it.
            let ordered = names.compactMap { n in LogFormat.firstPosition(ofSegmentName: n).map { (first: $0, name: n) } }.sorted { $0.first < $1.first }
            if let logEnd, p >= logEnd, !names.isEmpty {
                throw EventStoreError.invalidRequest("no segment holds position \(p) in \(path): the log holds positions 0 to \(logEnd == 0 ? "none" : String(logEnd - 1))")
            }
            wanted = ordered.last { $0.first <= p }?.name
        } else {
            wanted = nil
        }
        guard let name = wanted else {
            let listed = names.isEmpty ? "the store has no segments yet" : "segments: \(names.sorted().joined(separator: ", "))"
            throw EventStoreError.invalidRequest("no segment '\(segment)' in \(path); \(listed)")
        }
        return name
    }
}

/// Lays open a segment file for `log inspect`.
struct SegmentInspector {
    let state: LogState

    func inspect(name: String) throws -> SegmentInspection {
        let path = state.segmentsDirectory + "/" + name
        let fd = try FileDescriptor.open(path, .readOnly)
        let size = try fd.size()
        let header = try SegmentHeader.decode(try fd.read(at: 0, count: LogFormat.segmentHeaderSize), file: path)
        var footer: SegmentFooter?
        var footerOK: Bool?
        var checkpoint: ActiveCheckpoint?
        var end = size
        if let t = try SegmentFooter.readTrailer(fd: fd, fileSize: size) {
            let f = try SegmentFooter.read(fd: fd, file: path, footerOffset: t.footerOffset, footerLength: t.footerLength)
            footer = f
            end = f.dataEnd
            footerOK = (try? checksum(of: fd, upTo: f.dataEnd, file: path)) == f.checksum
        } else if let head = try state.peekHead(), head.activeFirstPosition == header.firstPosition {
            end = min(size, head.endOffset)
            checkpoint = ActiveCheckpoint.load(
                path: ActiveCheckpoint.path(ofSegment: path), firstPosition: header.firstPosition, fd: fd, durableEnd: head.endOffset)
        }
        var frames: [SegmentInspection.Frame] = []
        var scanner = FrameScanner(fd: fd, from: UInt64(LogFormat.segmentHeaderSize), to: end)
        while true {
            let (found, stop) = try scanner.next()
            if let stop {
                if case .zeroFill = stop, footer == nil { break }
                let o = stop.offset
                frames.append(.init(offset: o, length: end - o, kind: "damaged", firstPosition: 0, events: 0, commits: 0, codec: "-", rawLength: 0,
                                    firstRecordedAt: Timestamp(microsecondsSinceEpoch: 0), lastRecordedAt: Timestamp(microsecondsSinceEpoch: 0), checksumOK: false))
                break
            }
            guard let f = found else { break }
            let h = f.header
            let codec: String
            switch h.codec {
            case .none: codec = "none"
            case .zstd: codec = "zstd"
            case .zstdDictionary: codec = "zstd+dictionary \(h.dictionaryID)"
            case .columnarZstd: codec = "columns+zstd"
            case .columnarZstdDictionary: codec = "columns+zstd+dictionary \(h.dictionaryID)"
            case .columnarParts: codec = "columns+zstd by groups"
            }
            frames.append(.init(
                offset: f.offset, length: UInt64(f.totalLength), kind: h.type == .block ? "block" : "commit", firstPosition: h.firstPosition,
                events: Int(h.eventCount), commits: Int(h.commitCount), codec: codec, rawLength: Int(h.rawLength),
                firstRecordedAt: h.firstRecordedAt, lastRecordedAt: h.lastRecordedAt, checksumOK: true))
            frames[frames.count - 1].groupIndex = Int(h.groupIndex)
        }
        let base = String(path.dropLast(4))
        let sidx = footer.flatMap { StreamIndexFile.load(path: base + ".sidx", segmentFirstPosition: header.firstPosition, segmentEvents: $0.eventCount) }
        let eidx = footer.flatMap { EventIDIndexFile.load(path: base + ".eidx", segmentFirstPosition: header.firstPosition, segmentEvents: $0.eventCount) }
        var indexStreams = sidx?.streamCount ?? 0
        var indexIDs = eidx?.count ?? 0
        if footer == nil, let a = state.active, a.firstPosition == header.firstPosition {
            indexStreams = a.streamCount
            indexIDs = a.eventIDCount
        }
        return SegmentInspection(
            name: name, formatVersion: Int(header.formatVersion), minimumReaderVersion: Int(header.minimumReaderVersion),
            state: footer == nil ? "active" : (header.layout == .blocks ? "compacted" : "sealed"), firstPosition: header.firstPosition,
            createdAt: header.createdAt, fileBytes: size, frames: frames, footerEvents: footer?.eventCount,
            footerLastPosition: footer?.lastPosition, footerChecksum: footer?.checksum, footerChecksumOK: footerOK,
            indexStreams: indexStreams, indexEventIDs: indexIDs, timeIndexEntries: footer?.index.count ?? frames.count,
            checkpointEvents: checkpoint?.content.eventCount, checkpointEnd: checkpoint?.content.coveredEnd)
    }
}

extension FileEventStore {
    /// The last position recorded at or before a time, found through the time index (sealed segments' footers
    /// and the active segment's frames) without scanning the log: what "as of time T" reads start from.
    ///
    /// - Parameter time: The moment.
    /// - Returns: The position of the last event recorded at or before `time`, `nil` if none was.
    /// - Throws: An I/O or corruption error.
    public func lastPosition(atOrBefore time: Timestamp) throws -> UInt64? {
        try withState(writer: false) { s in
            if let a = s.active, let first = a.frames.first, first.recordedAt <= time {
                var lo = 0
                var hi = a.frames.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if a.frames[mid].recordedAt <= time { lo = mid + 1 } else { hi = mid }
                }
                return a.frames[lo - 1].lastPosition
            }
            // recordedAt never decreases along the log, so segments and their index entries are ordered by time.
            var lo = 0
            var hi = s.sealed.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if s.sealed[mid].footer.firstRecordedAt <= time { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return nil }
            let segment = s.sealed[lo - 1]
            if segment.footer.lastRecordedAt <= time { return segment.lastPosition }
            let entries = segment.footer.index
            guard !entries.isEmpty else {
                throw EventStoreError.corrupted(location: segment.path, offset: segment.footer.dataEnd, reason: "sealed segment footer has no index entries")
            }
            var i = 0
            var j = entries.count
            while i < j {
                let mid = (i + j) / 2
                if entries[mid].recordedAt <= time { i = mid + 1 } else { j = mid }
            }
            // Entries are sparse: walk the frames after the last entry at or before `time`.
            let start = entries[max(i - 1, 0)].firstPosition
            // Everything before `start` was recorded no later than it, hence no later than `time`.
            var result: UInt64? = start == 0 ? nil : start - 1
            var ref: FrameRef? = try segment.locate(start)
            while let r = ref {
                var past = false
                try s.walk(segment, r) { e in
                    if e.recordedAt > time {
                        past = true
                        return false
                    }
                    result = e.position
                    return true
                }
                if past { break }
                ref = try segment.frame(after: r)
            }
            return result
        }
    }
}
