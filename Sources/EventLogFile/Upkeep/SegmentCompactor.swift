import EventLog
import PawtrailIO

/// Rewrites a sealed segment of single-commit frames into large blocks of whole commits, compressed together
/// (with the store's dictionary when it has one), so data at rest compresses like a bulk file while every
/// commit was still durable on its own when written. The new file replaces the old one by an atomic rename;
/// readers holding the old file keep reading it, unchanged.
struct SegmentCompactor {
    let dictionaries: DictionarySet
    let blockSize: Int
    let level: Int32
    /// Whether blocks are laid out by columns (``ColumnarPayload``) when that round-trips and pays.
    let columnar: Bool
    private let compressor = ZstdCompressor()
    private let decompressor = ZstdDecompressor()

    init(dictionaries: DictionarySet, blockSize: Int, level: Int32, columnar: Bool = true) {
        self.dictionaries = dictionaries
        self.blockSize = blockSize
        self.level = level
        self.columnar = columnar
    }

    /// Compacts one segment file if it still holds single commits.
    ///
    /// - Returns: `true` when the file was rewritten.
    func compact(path: String) throws -> Bool {
        let fd = try FileDescriptor.open(path, .readOnly)
        let size = try fd.size()
        let header = try SegmentHeader.decode(try fd.read(at: 0, count: LogFormat.segmentHeaderSize), file: path)
        guard header.layout == .commits, let trailer = try SegmentFooter.readTrailer(fd: fd, fileSize: size) else { return false }
        let source = try SegmentFooter.read(fd: fd, file: path, footerOffset: trailer.footerOffset, footerLength: trailer.footerLength)
        let dictionary = try dictionaries.newest()

        let temporary = path + ".compacting"
        let out = try FileDescriptor.open(temporary, .readWriteCreate)
        try out.truncate(to: 0)
        let newHeader = SegmentHeader(layout: .blocks, firstPosition: header.firstPosition, createdAt: header.createdAt)
        var crc = CRC32C()
        let headerBytes = newHeader.encoded()
        try out.write(headerBytes, at: 0)
        crc.update(headerBytes)
        var offset = UInt64(headerBytes.count)

        var block = ByteWriter(capacity: blockSize + (64 << 10))
        var blockFirst: UInt64 = header.firstPosition
        var blockEvents = 0
        var blockCommits = 0
        var blockFirstAt = Timestamp(microsecondsSinceEpoch: 0)
        var blockLastAt = blockFirstAt
        var position = header.firstPosition
        var index: [SegmentFooter.IndexEntry] = []

        func flush() throws {
            guard blockEvents > 0 else { return }
            var frame: [UInt8] = []
            try FrameIO.encode(
                type: .block, firstPosition: blockFirst, eventCount: blockEvents, commitCount: blockCommits,
                firstRecordedAt: blockFirstAt, lastRecordedAt: blockLastAt, payload: block.bytes, compressor: compressor,
                level: level, dictionary: dictionary.map { ($0.id, $0.block) }, columnar: columnar, into: &frame)
            try out.write(frame, at: offset)
            crc.update(frame)
            index.append(.init(firstPosition: blockFirst, offset: offset, recordedAt: blockFirstAt))
            offset += UInt64(frame.count)
            block = ByteWriter(capacity: blockSize + (64 << 10))
            blockEvents = 0
            blockCommits = 0
        }

        var scanner = FrameScanner(fd: fd, from: UInt64(LogFormat.segmentHeaderSize), to: source.dataEnd)
        do {
            try scanner.forEachPayload(file: path, decompressor: decompressor, dictionaries: dictionaries) { f, raw in
                try CommitCodec.walkCommits(raw, header: f.header) { c in
                    if blockEvents == 0 {
                        blockFirst = position
                        blockFirstAt = c.recordedAt
                    }
                    CommitCodec.encodeCommitHeader(
                        recordedAtDelta: c.recordedAt.microsecondsSinceEpoch - blockFirstAt.microsecondsSinceEpoch,
                        eventCount: c.eventCount, into: &block)
                    block.write(bytes: c.events)
                    blockEvents += c.eventCount
                    blockCommits += 1
                    blockLastAt = c.recordedAt
                    position += UInt64(c.eventCount)
                    if block.count >= blockSize { try flush() }
                }
            }
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error
        }
        try flush()
        guard position == source.lastPosition + 1 else {
            try? FileSystem.removeFile(temporary)
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "compaction read \(position - header.firstPosition) events; the footer counts \(source.eventCount)")
        }
        let footer = SegmentFooter(
            layout: .blocks, eventCount: source.eventCount, commitCount: source.commitCount, lastPosition: source.lastPosition,
            firstRecordedAt: source.firstRecordedAt, lastRecordedAt: source.lastRecordedAt, dataEnd: offset,
            // The events' size as the log first encoded them: the blocks re-encode each commit's time against the
            // block's, a few bytes' difference that would make `log stats` change on compaction.
            rawBytes: source.rawBytes,
            checksum: crc.value, index: index)
        try out.write(footer.encodedWithTrailer(), at: offset)
        // Always flushed, even for a store written without flushes: the rename replaces data that is already
        // on disk, and must never replace it with data that is not.
        try out.synchronizeData()
        try FileSystem.rename(temporary, to: path)
        try FileSystem.synchronizeDirectory(FileSystem.directoryName(of: path))
        return true
    }
}
