import EventLog
import Foundation
import PawtrailIO

/// Looking up single events by position: a stream's read, an id's check. A large commit stored in parts is read by
/// the part that holds the event, so the event costs its part, not its commit's neighbours.
extension LogState {
    /// The event at a position. Each cached frame (or part) remembers where its events start, so looking up many
    /// events of one large commit decodes each once instead of walking the frame from its start every time.
    func event(at position: UInt64) throws -> RecordedEvent {
        let segment = try self.segment(containing: position)
        let ref = try segment.locate(position)
        let (key, h, payload) = try payload(holding: position, segment, ref)
        let starts: [FrameCache.EventStart]
        if let known = cache.starts(key) {
            starts = known
        } else {
            var found: [FrameCache.EventStart] = []
            found.reserveCapacity(Int(h.eventCount))
            // Walked in the payload in hand: a frame too large for the cache would be decompressed again by
            // `walk`, into another buffer, and offsets taken there would not point into this one.
            do {
                try payload.withUnsafeBytes { base in
                    try CommitCodec.walkEvents(base, header: h) { e in
                        found.append(.init(offset: base.baseAddress!.distance(to: e.encoded.baseAddress!), recordedAt: e.recordedAt))
                        return true
                    }
                }
            } catch let e as ByteReaderError {
                throw EventStoreError.corrupted(location: segment.path, offset: ref.offset, reason: "frame events do not decode: \(e)")
            }
            cache.setStarts(key, found)
            starts = found
        }
        let index = Int(position - h.firstPosition)
        guard index < starts.count else {
            throw EventStoreError.corrupted(location: segment.path, offset: ref.offset, reason: "position \(position) missing from its frame")
        }
        do {
            return try payload.withUnsafeBytes { raw in
                var r = ByteReader(raw, offset: starts[index].offset)
                return try CommitCodec.parseEvent(raw, &r, position: position, recordedAt: starts[index].recordedAt).materialize()
            }
        } catch let e as ByteReaderError {
            throw EventStoreError.corrupted(location: segment.path, offset: ref.offset, reason: "frame events do not decode: \(e)")
        }
    }

    /// The decompressed payload that holds `position`, through the cache: the whole frame when it is cached or is not
    /// stored in parts, else only the part of it that holds the position.
    ///
    /// - Returns: The cache key of what was decoded, its header (for a part: its first position, events and length)
    ///   and its payload.
    func payload(holding position: UInt64, _ segment: any SegmentFile, _ ref: FrameRef) throws -> (FrameCache.Key, FrameHeader, [UInt8]) {
        let frameKey = FrameCache.Key(segment: segment.firstPosition, layout: segment.header.layout, offset: ref.offset)
        if let hit = cache.get(frameKey) { return (frameKey, hit.0, hit.1) }
        let index = Int(position - ref.firstPosition)
        if let starts = cache.partStarts[frameKey], let part = starts.lastIndex(where: { $0 <= index }) {
            var partKey = frameKey
            partKey.part = part + 1
            if let hit = cache.get(partKey) { return (partKey, hit.0, hit.1) }
        }
        var frame: [UInt8] = []
        var payload: [UInt8] = []
        var part: (number: Int, starts: [Int])?
        let header = try Self.withCheckedBody(segment, ref, frame: &frame) { body, h in
            if let found = try FrameIO.partPayload(of: body, header: h, holding: index, decompressor: decompressor, into: &payload) {
                part = (found.part, found.starts)
                return found.header
            }
            try FrameIO.payload(of: body, header: h, decompressor: decompressor, dictionaries: dictionaries, into: &payload)
            return h
        }
        payload.removeSubrange(Int(header.rawLength)...)
        lookupBytesDecoded += payload.count
        guard let part else {
            cache.insert(frameKey, header: header, payload: payload)
            return (frameKey, header, payload)
        }
        cache.setPartStarts(frameKey, part.starts)
        var partKey = frameKey
        partKey.part = part.number + 1
        cache.insert(partKey, header: header, payload: payload)
        return (partKey, header, payload)
    }
}
