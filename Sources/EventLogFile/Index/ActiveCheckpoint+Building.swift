import EventLog
import Foundation
import PawtrailIO

/// A checkpoint built by a scan of the segment's frames: what `log verify` compares every checkpoint with.
extension ActiveCheckpoint {
    /// Builds a checkpoint of the active segment up to a commit boundary from its frames: those after `previous`,
    /// added to what it holds (the result is the same as from the segment's first frame on).
    ///
    /// - Parameters:
    ///   - segment: The segment's path, for errors.
    ///   - fd: The segment file.
    ///   - firstPosition: The segment's first position.
    ///   - end: A commit boundary at or before the durable end.
    ///   - previous: A checkpoint of the same file covering less, or `nil`.
    ///   - decompressor: A context for this thread.
    ///   - dictionaries: The store's dictionaries.
    /// - Returns: The bytes of the checkpoint, or `nil` when there is nothing to cover or it would not fit its format.
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` when a frame is damaged, an I/O or decoding error.
    static func build(
        segment: String, fd: FileDescriptor, firstPosition: UInt64, upTo end: UInt64, previous: ActiveCheckpoint?,
        decompressor: ZstdDecompressor, dictionaries: DictionarySet
    ) throws -> [UInt8]? {
        var content = previous?.fullContent() ?? Content(firstPosition: firstPosition)
        var ids: [(key: UInt64, position: UInt64)] = []
        if let previous {
            ids.reserveCapacity(previous.idCount)
            for i in 0..<previous.idCount { ids.append(previous.idEntry(at: i)) }
        }
        var scanner = FrameScanner(fd: fd, from: content.coveredEnd, to: end)
        try scanner.forEachPayload(file: segment, decompressor: decompressor, dictionaries: dictionaries) { f, payload in
            guard f.header.type == .commit, f.header.firstPosition == firstPosition + content.eventCount else {
                throw EventStoreError.corrupted(location: segment, offset: f.offset, reason: "frame holds positions from \(f.header.firstPosition), expected \(firstPosition + content.eventCount)")
            }
            try CommitCodec.walkEvents(payload, header: f.header) { e in
                content.streams[e.streamID(), default: ActiveSegment.Stream(firstVersion: e.version, positions: [])].positions.append(e.position)
                ids.append((keptKey(EventIDIndexFile.key(e.id)), e.position))
                return true
            }
            content.frames.append(f.ref)
            content.rawBytes += UInt64(f.header.rawLength)
            content.lastRecordedAt = f.header.lastRecordedAt
            content.coveredEnd = f.offset + UInt64(f.totalLength)
        }
        guard !content.frames.isEmpty, content.coveredEnd == end else { return nil }
        ids.sort { ($0.key, $0.position) < ($1.key, $1.position) }
        return encode(content, ids: ids, file: try fd.fileID())
    }
}
