import EventLog
import Foundation
import PawtrailIO

/// Reading: events in order from the segments, forward and backward, through the frame cache.
extension LogState {
    // MARK: - Reading

    func segment(containing position: UInt64) throws -> any SegmentFile {
        if let a = active, a.contains(position) { return a }
        var lo = 0
        var hi = sealed.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sealed[mid].firstPosition <= position { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, sealed[lo - 1].contains(position) else {
            if let damage = activeDamage { throw damage }
            throw EventStoreError.storeFailure("position \(position) is beyond the end of the log")
        }
        return sealed[lo - 1]
    }

    /// A frame's header and decompressed payload, checked and cached.
    func framePayload(_ segment: any SegmentFile, _ ref: FrameRef) throws -> (FrameHeader, [UInt8]) {
        let key = FrameCache.Key(segment: segment.firstPosition, layout: segment.header.layout, offset: ref.offset)
        if let hit = cache.get(key) { return hit }
        var frame: [UInt8] = []
        var payload: [UInt8] = []
        let header = try Self.load(segment, ref, frame: &frame, payload: &payload, decompressor: decompressor, dictionaries: dictionaries)
        let result = (header, payload)
        cache.insert(key, header: result.0, payload: result.1)
        return result
    }

    /// Visits the events of one frame.
    func walk(_ segment: any SegmentFile, _ ref: FrameRef, _ body: (EventView) throws -> Bool) throws {
        let (h, payload) = try framePayload(segment, ref)
        do {
            try payload.withUnsafeBytes { raw in try CommitCodec.walkEvents(raw, header: h, body) }
        } catch let e as ByteReaderError {
            throw EventStoreError.corrupted(location: segment.path, offset: ref.offset, reason: "frame events do not decode: \(e)")
        }
    }

    /// More concurrent scans than this share cursors, least recently used first (correct, only slower).
    static let maxCursors = 4

    /// The cursor of the scan that stopped at `position`, else a fresh or the least recently used one.
    func cursor(resuming position: UInt64) -> ScanCursor {
        cursorClock += 1
        let chosen: ScanCursor
        if let c = cursors.first(where: { $0.resumeAt == position }) {
            chosen = c
        } else if cursors.count < Self.maxCursors {
            chosen = ScanCursor()
            cursors.append(chosen)
        } else {
            chosen = cursors.min { $0.lastUsed < $1.lastUsed }!
        }
        chosen.lastUsed = cursorClock
        return chosen
    }

    /// Visits the events of one frame on a sequential scan: a cached frame is used as is; any other is read and
    /// decompressed into the cursor's reusable buffers, and cached only when another scan shortly behind will want
    /// it (otherwise a scan would only push out what lookups reuse).
    func scan(_ segment: any SegmentFile, _ ref: FrameRef, _ cursor: ScanCursor, at position: UInt64, _ body: (EventView) throws -> Bool) throws {
        let key = FrameCache.Key(segment: segment.firstPosition, layout: segment.header.layout, offset: ref.offset)
        if cache.contains(key) { return try walk(segment, ref, body) }
        func corrupt(_ reason: String) -> EventStoreError { .corrupted(location: segment.path, offset: ref.offset, reason: reason) }
        if let s = cursor.scanned, s.key == key { return try cursor.walk(s.header, body, corrupt) }
        cursor.scanned = nil
        if let header = cursor.prefetcher.take(key, swappingPayloadWith: &cursor.payload) {
            cursor.scanned = (key, header)
        } else {
            let header = try Self.load(segment, ref, frame: &cursor.frame, payload: &cursor.payload, decompressor: decompressor, dictionaries: dictionaries)
            cursor.scanned = (key, header)
        }
        // Another scan a little behind (a rebuild's other thread) will want this frame too: it reads the copy instead
        // of decompressing the frame again.
        if anotherScan(than: cursor, isShortlyBefore: position) {
            let header = cursor.scanned!.header
            cache.insert(key, header: header, payload: Array(cursor.payload[..<Int(header.rawLength)]))
        }
        // Frames whose place is known without reading (blocks of compacted segments, the active segment's
        // frames) are fetched ahead; a failure there is left for the synchronous path to report.
        if let next = segment.indexedFrame(after: ref), next.length >= Self.prefetchMinimumFrame {
            let nextKey = FrameCache.Key(segment: segment.firstPosition, layout: segment.header.layout, offset: next.offset)
            if !cache.contains(nextKey) { cursor.prefetcher.start(segment, next, key: nextKey, dictionaries: dictionaries) }
        }
        try cursor.walk(cursor.scanned!.header, body, corrupt)
    }

    /// How far behind another scan may be for a frame to be kept for it (the frame cache holds about this many
    /// events' frames).
    static let sharedScanReach: UInt64 = 100_000

    /// Whether a scan other than `cursor`, active in the last few reads, stopped shortly before `position`.
    func anotherScan(than cursor: ScanCursor, isShortlyBefore position: UInt64) -> Bool {
        cursors.contains { other in
            guard other !== cursor, other.lastUsed + 8 >= cursorClock, let at = other.resumeAt else { return false }
            return at < position && position - at <= Self.sharedScanReach
        }
    }

    /// Smaller frames are not worth a hand-off to another thread.
    static let prefetchMinimumFrame: UInt32 = 32 << 10

    /// Reads a frame into `frame`, checks it, and decompresses its payload into `payload`.
    static func load(
        _ segment: any SegmentFile, _ ref: FrameRef, frame: inout [UInt8], payload: inout [UInt8],
        decompressor: ZstdDecompressor, dictionaries: DictionarySet
    ) throws -> FrameHeader {
        try withCheckedBody(segment, ref, frame: &frame) { body, h in
            try FrameIO.payload(of: body, header: h, decompressor: decompressor, dictionaries: dictionaries, into: &payload)
            return h
        }
    }

    /// Reads a frame into `frame`, checks its length, checksum and header against the index that led to it, and
    /// decodes its payload with `use`.
    ///
    /// - Parameters:
    ///   - segment: The segment that holds it.
    ///   - ref: Where the index says it is, and what it holds.
    ///   - frame: A buffer to read it into (reused across frames).
    ///   - use: What decodes the checked body, given its header.
    /// - Returns: What `use` returns.
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` for a damaged frame or a payload that does not
    ///   decode (an ``EventStoreError`` from `use` as it is).
    static func withCheckedBody<T>(
        _ segment: any SegmentFile, _ ref: FrameRef, frame: inout [UInt8],
        _ use: (UnsafeRawBufferPointer, FrameHeader) throws -> T
    ) throws -> T {
        func corrupt(_ reason: String) -> EventStoreError { .corrupted(location: segment.path, offset: ref.offset, reason: reason) }
        let length = Int(ref.length)
        guard length >= LogFormat.frameOverhead + LogFormat.frameHeaderSize, try segment.fd.read(at: ref.offset, count: length, into: &frame) == length else {
            throw corrupt("frame is cut short")
        }
        return try frame.withUnsafeBytes { raw in
            let bodyLength = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
            guard bodyLength + LogFormat.frameOverhead == length else { throw corrupt("frame length changed") }
            let body = UnsafeRawBufferPointer(rebasing: raw[4..<(4 + bodyLength)])
            let crc = raw.loadUnaligned(fromByteOffset: 4 + bodyLength, as: UInt32.self).littleEndian
            guard let h = FrameIO.openBody(body, storedCRC: crc) else { throw corrupt("frame checksum mismatch: the commit's bytes are damaged") }
            // The index that led here (a checkpoint's frame list, a footer) must agree with the frame: readers take
            // positions in it relative to the frame's first.
            guard h.firstPosition == ref.firstPosition, h.eventCount == ref.eventCount else {
                throw corrupt("frame holds positions \(h.firstPosition) to \(h.firstPosition &+ UInt64(h.eventCount) &- 1), the index says \(ref.firstPosition) to \(ref.firstPosition &+ UInt64(ref.eventCount) &- 1)")
            }
            do {
                return try use(body, h)
            } catch let e as EventStoreError {
                throw e
            } catch {
                throw corrupt("frame payload does not decompress: \(error)")
            }
        }
    }

    /// Reads forward by position from `from`, keeping the events `keep` gives a type name for (the name they are
    /// materialized with), until `limit` events or the end.
    /// Returns the events and the first position not examined (`nil` at the end of the log).
    func readForward(from: UInt64, limit: Int, maxExamined: Int, keep: (EventView) -> String?) throws -> ([RecordedEvent], UInt64?) {
        var out: [RecordedEvent] = []
        var position = from
        let end = nextPosition
        var examined = 0
        let cursor = self.cursor(resuming: from)
        defer { cursor.resumeAt = position }
        while position < end && out.count < limit && examined < maxExamined {
            let segment = try self.segment(containing: position)
            var ref: FrameRef? = try segment.locate(position)
            while let r = ref, out.count < limit, examined < maxExamined {
                try scan(segment, r, cursor, at: position) { e in
                    if e.position < position { return true }
                    // Positions are gapless: a jump means an index led the scan astray.
                    guard e.position == position else {
                        throw EventStoreError.corrupted(location: segment.path, offset: r.offset, reason: "expected position \(position), found \(e.position)")
                    }
                    if out.count == limit || examined >= maxExamined { return false }
                    examined += 1
                    if let type = keep(e) { out.append(try e.materialize(type: type)) }
                    position = e.position + 1
                    return true
                }
                ref = try segment.frame(after: r)
            }
        }
        if position >= end, let damage = activeDamage, out.count < limit { throw damage }
        return (out, position < end ? position : nil)
    }

    /// Reads backward by position from `from` (inclusive).
    func readBackward(from: UInt64, limit: Int, maxExamined: Int, keep: (EventView) -> String?) throws -> ([RecordedEvent], UInt64?) {
        var out: [RecordedEvent] = []
        guard nextPosition > 0 else { return ([], nil) }
        var position: Int64 = Int64(min(from, nextPosition - 1))
        var examined = 0
        while position >= 0 && out.count < limit && examined < maxExamined {
            let segment = try self.segment(containing: UInt64(position))
            let ref = try segment.locate(UInt64(position))
            var frameEvents: [(UInt64, RecordedEvent?)] = []
            try walk(segment, ref) { e in
                if e.position > UInt64(position) { return false }
                frameEvents.append((e.position, try keep(e).map { type throws(ByteReaderError) in try e.materialize(type: type) }))
                return true
            }
            for (p, e) in frameEvents.reversed() {
                if out.count == limit || examined >= maxExamined { break }
                examined += 1
                if let e { out.append(e) }
                position = Int64(p) - 1
            }
        }
        return (out, position >= 0 ? UInt64(position) : nil)
    }
}
