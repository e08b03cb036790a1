import EventLog
import PawtrailIO

/// Builds an ``IndexRun``'s files from its segments: the stream index by merging the segments' `.sidx` files, the
/// event-id index by reading every event id from the data. Runs on the upkeep thread, outside the state lock, with
/// its own descriptors and decompression context.
struct IndexRunBuilder {
    let dictionaries: DictionarySet
    private let decompressor = ZstdDecompressor()

    init(dictionaries: DictionarySet) {
        self.dictionaries = dictionaries
    }

    /// The bytes of a run's `.ridx` and `.eidx` files.
    ///
    /// - Parameters:
    ///   - segments: Consecutive sealed segments, oldest first.
    ///   - streams: Their stream indexes, checked (``LogState/streamIndex(of:)``).
    /// - Throws: A corruption error when a segment's data cannot be read whole (the run is then not built), or an
    ///   I/O error.
    func build(_ segments: [SealedSegment], streams: [StreamIndexFile]) throws -> (streams: [UInt8], ids: [UInt8]) {
        let first = segments[0].firstPosition
        // The id index counts its entries and positions within the run in 32 bits.
        guard segments[segments.count - 1].lastPosition - first < UInt64(UInt32.max) else {
            throw EventStoreError.storeFailure("an index run over positions \(first)-\(segments[segments.count - 1].lastPosition) would hold more events than its id index can count")
        }
        var ids: [(key: UInt64, position: UInt64)] = []
        ids.reserveCapacity(Int(segments[segments.count - 1].lastPosition - first + 1))
        for segment in segments {
            // Opened afresh: compaction may have replaced the file since the segment was loaded (with the same
            // events), and the footer read here is the one that describes the bytes read.
            let fd = try FileDescriptor.open(segment.path, .readOnly)
            let size = try fd.size()
            guard let trailer = try SegmentFooter.readTrailer(fd: fd, fileSize: size) else {
                throw EventStoreError.corrupted(location: segment.path, offset: size, reason: "sealed segment has no valid footer")
            }
            let footer = try SegmentFooter.read(fd: fd, file: segment.path, footerOffset: trailer.footerOffset, footerLength: trailer.footerLength)
            var next = segment.firstPosition
            var scanner = FrameScanner(fd: fd, from: UInt64(LogFormat.segmentHeaderSize), to: footer.dataEnd)
            try scanner.forEachPayload(file: segment.path, decompressor: decompressor, dictionaries: dictionaries) { f, raw in
                try CommitCodec.walkEvents(raw, header: f.header) { e in
                    guard e.position == next else {
                        throw EventStoreError.corrupted(location: segment.path, offset: 0, reason: "event at position \(e.position) where \(next) was expected")
                    }
                    ids.append((EventIDIndexFile.key(e.id), e.position))
                    next += 1
                    return true
                }
            }
            guard next == segment.lastPosition + 1 else {
                throw EventStoreError.corrupted(location: segment.path, offset: 0, reason: "read \(next - segment.firstPosition) events; the footer counts \(segment.eventCount)")
            }
        }
        let idBytes = EventIDIndexFile.encode(segmentFirstPosition: first, ids: ids)
        let streamBytes = try RunStreamIndexFile.encode(
            runFirstPosition: first, segments: streams, identity: IndexRun.identity(of: segments),
            idsChecksum: EventIDIndexFile.checksum(ofEncoded: idBytes))
        return (streamBytes, idBytes)
    }
}
