import EventLog
import Foundation
import PawtrailIO

/// Builds and opens frames: `u32 body length | body | u32 CRC32C(body)`, body = ``FrameHeader`` + payload
/// (zstd-compressed, with or without a dictionary, or stored as is when compression does not pay).
/// The CRC32C of a file's first `end` bytes, read in 4 MiB chunks (the whole-segment checksum of a footer).
func checksum(of fd: FileDescriptor, upTo end: UInt64, file: String) throws -> UInt32 {
    var crc = CRC32C()
    var offset: UInt64 = 0
    while offset < end {
        let chunk = try fd.read(at: offset, count: Int(min(UInt64(4 << 20), end - offset)))
        guard !chunk.isEmpty else {
            throw EventStoreError.corrupted(location: file, offset: offset, reason: "file ends before its data end \(end)")
        }
        crc.update(chunk)
        offset += UInt64(chunk.count)
    }
    return crc.value
}

enum FrameIO {
    /// Payloads at least this large are compressed on two cores when a helper context is given.
    static let parallelThreshold = 256 << 10

    /// A payload as a frame stores it: compressed (with or without a dictionary), or as is when compression
    /// does not pay.
    struct StoredPayload {
        var codec: FrameCodec
        var dictionaryID: UInt32
        var bytes: [UInt8]
        /// The uncompressed length.
        var rawLength: Int
    }

    /// Compresses a payload for a frame.
    ///
    /// - Parameters:
    ///   - payload: The uncompressed payload.
    ///   - compressor: The context to compress with (on the calling thread).
    ///   - level: The level, used without a dictionary.
    ///   - dictionary: The dictionary to compress with and its id, or `nil`.
    ///   - helper: A second context: a large payload without a dictionary is compressed half on another core.
    ///   - columnarCommits: The payload's commits, to lay it out by columns (``ColumnarParts``), or `nil` for rows.
    ///   - columnarParts: Parts to lay one commit out in (split between two cores when `helper` is given).
    /// - Returns: What the frame stores.
    /// - Throws: ``ZstdError``.
    static func store(
        _ payload: UnsafeRawBufferPointer, compressor: ZstdCompressor, level: Int32,
        dictionary: (id: UInt32, dictionary: ZstdDictionary)?, helper: ZstdCompressor? = nil, columnarCommits: Int? = nil,
        columnarParts: Int = 1
    ) throws -> StoredPayload {
        if let commits = columnarCommits,
            let columnar = try ColumnarParts.store(
                payload, commitCount: commits, parts: columnarParts, compressor: compressor, helper: helper, level: level)
        {
            // A small block (a segment's last, say) or commit can compress better as rows with the dictionary: both are
            // tried there, where it costs little.
            let rows = payload.count < dictionaryCommitLimit
                ? try store(payload, compressor: compressor, level: level, dictionary: dictionary, helper: nil) : nil
            if let rows, rows.bytes.count <= columnar.count { return rows }
            if columnar.count < payload.count {
                return StoredPayload(codec: .columnarParts, dictionaryID: 0, bytes: columnar, rawLength: payload.count)
            }
        }
        var compressed: [UInt8] = []
        if dictionary == nil, let helper, payload.count >= parallelThreshold {
            // A large payload is compressed as two zstd frames, one on another core; zstd decompresses
            // concatenated frames in one call, so readers see no difference.
            let half = payload.count / 2
            let firstHalf = Array(payload[..<half])
            let (first, second) = try HelperThread.both(
                there: { () throws -> [UInt8] in
                    var out: [UInt8] = []
                    try firstHalf.withUnsafeBytes { try helper.compress($0, level: level, dictionary: nil, appendingTo: &out) }
                    return out
                },
                here: { () throws -> [UInt8] in
                    var out: [UInt8] = []
                    try compressor.compress(UnsafeRawBufferPointer(rebasing: payload[half...]), level: level, dictionary: nil, appendingTo: &out)
                    return out
                })
            compressed = first
            compressed.append(contentsOf: second)
        } else {
            try compressor.compress(payload, level: level, dictionary: dictionary?.dictionary, appendingTo: &compressed)
        }
        guard compressed.count < payload.count else {
            return StoredPayload(codec: .none, dictionaryID: 0, bytes: Array(payload), rawLength: payload.count)
        }
        return StoredPayload(
            codec: dictionary == nil ? .zstd : .zstdDictionary, dictionaryID: dictionary?.id ?? 0, bytes: compressed,
            rawLength: payload.count)
    }

    /// Commits at least this large (uncompressed) are compressed without the dictionary: a large commit carries
    /// its own context, and skipping the dictionary there saves time for nothing lost.
    static let dictionaryCommitLimit = 64 << 10

    /// Under load, commit payloads smaller than this are stored as they are: their frame fits one 4 KiB page, which
    /// the flush writes either way, and compaction compresses the sealed segment.
    static let uncompressedUnderLoadLimit = 4096 - LogFormat.frameOverhead - LogFormat.frameHeaderSize

    /// Stores a commit's payload: the one policy for commits, whether the appending task or the committer
    /// encodes them.
    ///
    /// - Parameters:
    ///   - payload: The encoded commit.
    ///   - underLoad: Whether other appends are waiting or in the same group (a payload of less than a page is then
    ///     stored as it is).
    ///   - compressor: The context to compress with.
    ///   - level: The level without a dictionary.
    ///   - dictionary: The store's newest dictionary, asked for only when a payload is small enough to use it.
    ///   - helper: A second context, for a large payload on another core.
    ///   - columnar: Whether a large commit may be laid out by columns (``FrameCodec/columnarParts``: the segment it
    ///     goes to says it needs a format 3 reader).
    /// - Returns: What the frame stores.
    /// - Throws: ``ZstdError``, or what `dictionary` throws.
    static func storeCommit(
        _ payload: [UInt8], underLoad: Bool, compressor: ZstdCompressor, level: Int32,
        dictionary: () throws -> (id: UInt32, dictionary: ZstdDictionary)?, helper: ZstdCompressor? = nil, columnar: Bool = false
    ) throws -> StoredPayload {
        if underLoad && payload.count < uncompressedUnderLoadLimit {
            return StoredPayload(codec: .none, dictionaryID: 0, bytes: payload, rawLength: payload.count)
        }
        let dict = payload.count < dictionaryCommitLimit ? try dictionary() : nil
        return try payload.withUnsafeBytes { raw in
            // A large commit is laid out by columns, as compaction lays out blocks: it stays in the active segment
            // until that is sealed, as much as a fifth of a store (the benchmark's 500,000 events: 98.7 bytes an event
            // as rows against 75 by columns). It is stored in parts that decode on their own, so that a read of one
            // of its events costs a part; the parts are laid out on two cores, since the appending task waits.
            guard columnar, payload.count >= dictionaryCommitLimit else {
                return try store(raw, compressor: compressor, level: level, dictionary: dict, helper: helper)
            }
            // Two parts or more (and so the helper's core) from 2 x 128 KiB, which is `parallelThreshold`.
            return try store(
                raw, compressor: compressor, level: level, dictionary: nil, helper: helper, columnarCommits: 1,
                columnarParts: ColumnarParts.parts(forCommitOf: payload.count))
        }
    }

    /// Encodes a frame around an uncompressed payload, appending it to `output`.
    static func encode(
        type: FrameType, firstPosition: UInt64, eventCount: Int, commitCount: Int, firstRecordedAt: Timestamp,
        lastRecordedAt: Timestamp, payload: [UInt8], compressor: ZstdCompressor, level: Int32,
        dictionary: (id: UInt32, dictionary: ZstdDictionary)?, helper: ZstdCompressor? = nil, groupIndex: UInt16 = 0,
        columnar: Bool = false, into output: inout [UInt8]
    ) throws {
        let stored = try payload.withUnsafeBytes { raw in
            try store(
                raw, compressor: compressor, level: level, dictionary: dictionary, helper: helper,
                columnarCommits: columnar ? commitCount : nil)
        }
        encode(
            type: type, firstPosition: firstPosition, eventCount: eventCount, commitCount: commitCount,
            firstRecordedAt: firstRecordedAt, lastRecordedAt: lastRecordedAt, stored: stored, groupIndex: groupIndex,
            into: &output)
    }

    /// Encodes a frame around a payload already stored (compressed), appending it to `output`.
    ///
    /// - Returns: The frame's header.
    @discardableResult
    static func encode(
        type: FrameType, firstPosition: UInt64, eventCount: Int, commitCount: Int, firstRecordedAt: Timestamp,
        lastRecordedAt: Timestamp, stored: StoredPayload, groupIndex: UInt16 = 0, into output: inout [UInt8]
    ) -> FrameHeader {
        let header = FrameHeader(
            type: type, codec: stored.codec, dictionaryID: stored.dictionaryID, firstPosition: firstPosition,
            eventCount: UInt32(eventCount), commitCount: UInt32(commitCount), firstRecordedAt: firstRecordedAt,
            lastRecordedAt: lastRecordedAt, rawLength: UInt32(stored.rawLength), groupIndex: groupIndex)
        let start = output.count
        // Written in place: the writer takes the output's storage and gives it back. Nothing is reserved here: a
        // group's frames share one buffer, which must grow geometrically, not by exactly one frame at a time.
        var w = ByteWriter()
        swap(&w.bytes, &output)
        w.write(UInt32(LogFormat.frameHeaderSize + stored.bytes.count))
        header.write(to: &w)
        w.write(bytes: stored.bytes)
        swap(&w.bytes, &output)
        let crc = output.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + 4)...])) }
        withUnsafeBytes(of: crc.littleEndian) { output.append(contentsOf: $0) }
        return header
    }

    /// Checks a frame body's checksum and decodes its header. `body` excludes the length prefix and the CRC.
    static func openBody(_ body: UnsafeRawBufferPointer, storedCRC: UInt32) -> FrameHeader? {
        guard body.count >= LogFormat.frameHeaderSize, CRC32C.checksum(body) == storedCRC else { return nil }
        return try? FrameHeader.decode(body)
    }

    /// Decompresses a frame body's payload into a buffer that may be reused across frames (grown, never
    /// shrunk: the payload is its first `header.rawLength` bytes). The one place a payload is decoded.
    static func payload(
        of body: UnsafeRawBufferPointer, header: FrameHeader, decompressor: ZstdDecompressor, dictionaries: DictionarySet,
        into buffer: inout [UInt8]
    ) throws {
        let stored = UnsafeRawBufferPointer(rebasing: body[LogFormat.frameHeaderSize...])
        guard header.rawLength <= LogFormat.maxPayloadLength else {
            throw ZstdError(operation: "read", reason: "the frame claims a payload of \(header.rawLength) bytes; at most \(LogFormat.maxPayloadLength) are written")
        }
        switch header.codec {
        case .none:
            guard stored.count == Int(header.rawLength) else {
                throw ZstdError(operation: "read", reason: "stored payload is \(stored.count) bytes, header says \(header.rawLength)")
            }
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: stored)
        case .zstd:
            try decompressor.decompress(stored, size: Int(header.rawLength), dictionary: nil, into: &buffer)
        case .zstdDictionary:
            try decompressor.decompress(stored, size: Int(header.rawLength), dictionary: try dictionaries.dictionary(for: header), into: &buffer)
        case .columnarParts:
            try ColumnarParts.decode(
                stored, commitCount: Int(header.commitCount), eventCount: Int(header.eventCount), rawLength: Int(header.rawLength),
                decompressor: decompressor, into: &buffer)
        case .columnarZstd, .columnarZstdDictionary:
            var r = ByteReader(stored)
            let length = try r.readVarint()
            // The encoder writes no layout longer than this (it keeps the rows instead); anything more is damage.
            guard length <= UInt64(ColumnarPayload.maximumLength(rawLength: Int(header.rawLength))) else {
                throw ZstdError(operation: "read", reason: "columnar length \(length) for a payload of \(header.rawLength) bytes")
            }
            let dictionary = header.codec == .columnarZstdDictionary ? try dictionaries.dictionary(for: header) : nil
            try decompressor.decompress(
                UnsafeRawBufferPointer(rebasing: stored[r.offset...]), size: Int(length), dictionary: dictionary,
                into: &decompressor.scratch)
            try decompressor.scratch.withUnsafeBytes { columnar in
                try ColumnarPayload.decode(
                    UnsafeRawBufferPointer(rebasing: columnar[..<Int(length)]), commitCount: Int(header.commitCount),
                    rawLength: Int(header.rawLength), into: &buffer)
            }
        }
    }

    /// Decodes only the part of a frame body that holds one event, when the frame is one commit stored in several
    /// columnar parts (a large commit: reading one of its events then costs its part, not the commit).
    ///
    /// - Parameters:
    ///   - body: The checked frame body.
    ///   - header: Its header.
    ///   - event: The event's index in the frame, from 0.
    ///   - decompressor: The context to decompress with.
    ///   - buffer: Receives the part's payload, a commit of the part's events, in its first `header.rawLength` bytes.
    /// - Returns: `nil` when the frame is not stored in parts (decode it whole with ``payload(of:header:decompressor:dictionaries:into:)``);
    ///   else the part's header (its first position, events and row length; the frame's times), the part's number
    ///   (from 0), and the index of every part's first event.
    /// - Throws: ``ZstdError`` or ``ByteReaderError`` when the bytes are damaged.
    static func partPayload(
        of body: UnsafeRawBufferPointer, header: FrameHeader, holding event: Int, decompressor: ZstdDecompressor,
        into buffer: inout [UInt8]
    ) throws -> (header: FrameHeader, part: Int, starts: [Int])? {
        guard header.codec == .columnarParts, header.commitCount == 1, header.rawLength <= LogFormat.maxPayloadLength else { return nil }
        let stored = UnsafeRawBufferPointer(rebasing: body[LogFormat.frameHeaderSize...])
        guard let found = try ColumnarParts.decodePart(
            stored, commitCount: 1, eventCount: Int(header.eventCount), rawLength: Int(header.rawLength), holding: event,
            decompressor: decompressor, into: &buffer)
        else { return nil }
        var part = header
        part.firstPosition = header.firstPosition + UInt64(found.starts[found.part])
        part.eventCount = UInt32(found.events)
        part.rawLength = UInt32(found.rowLength)
        return (part, found.part, found.starts)
    }

    /// Decompresses a frame body's payload into a new array of exactly its size.
    static func payload(
        of body: UnsafeRawBufferPointer, header: FrameHeader, decompressor: ZstdDecompressor, dictionaries: DictionarySet
    ) throws -> [UInt8] {
        var buffer: [UInt8] = []
        try payload(of: body, header: header, decompressor: decompressor, dictionaries: dictionaries, into: &buffer)
        return buffer
    }
}

/// Reads a file's frames sequentially through a large buffer (one `pread` per megabyte, not per frame).
struct FrameScanner {
    /// Why a scan stopped before the end it was given.
    enum Stop: Equatable {
        /// The length prefix is impossible or the frame runs past the end.
        case truncated(offset: UInt64, reason: String)
        /// The frame is complete but its checksum or header is wrong.
        case corrupt(offset: UInt64, reason: String)
        /// Zeros where a frame's length should be: space the writer preallocated past the last commit.
        case zeroFill(offset: UInt64)

        var offset: UInt64 {
            switch self {
            case .truncated(let o, _), .corrupt(let o, _), .zeroFill(let o): return o
            }
        }

        var reason: String {
            switch self {
            case .truncated(_, let r), .corrupt(_, let r): return r
            case .zeroFill: return "zeros where a frame should start"
            }
        }

        /// The error for a read that reached this stop in a file.
        func error(file: String) -> EventStoreError { .corrupted(location: file, offset: offset, reason: reason) }
    }

    /// A frame found by the scanner; `body` is valid until the next call.
    struct Found {
        var offset: UInt64
        var totalLength: Int
        var header: FrameHeader
        var storedCRC: UInt32

        /// Where the frame sits, for indexes.
        var ref: FrameRef {
            FrameRef(
                firstPosition: header.firstPosition, offset: offset, length: UInt32(totalLength), eventCount: header.eventCount,
                recordedAt: header.firstRecordedAt)
        }
    }

    let fd: FileDescriptor
    let end: UInt64
    private(set) var offset: UInt64
    private var buffer: [UInt8] = []
    private var bufferStart: UInt64 = 0
    /// The next read's size: small first, since a catch-up at open usually finds a few commits and then the
    /// preallocated zeros, doubling up to 1 MiB for a long scan.
    private var chunk = 64 << 10

    init(fd: FileDescriptor, from offset: UInt64, to end: UInt64) {
        self.fd = fd
        self.offset = offset
        self.end = end
    }

    /// Makes `[from, from + count)` available in the buffer; returns false if the file ends first.
    private mutating func ensure(_ from: UInt64, _ count: Int) throws -> Bool {
        if from >= bufferStart && from + UInt64(count) <= bufferStart + UInt64(buffer.count) { return true }
        guard from + UInt64(count) <= end else { return false }
        let want = Int(min(UInt64(max(count, chunk)), end - from))
        chunk = min(chunk * 2, 1 << 20)
        buffer = try fd.read(at: from, count: want)
        bufferStart = from
        return buffer.count >= count
    }

    /// Reads the next frame, or returns why the data ends here; `nil`/`nil` at a clean end.
    mutating func next(visitBody: ((UnsafeRawBufferPointer, FrameHeader) throws -> Void)? = nil) throws -> (Found?, Stop?) {
        if offset >= end { return (nil, nil) }
        guard try ensure(offset, 4) else {
            return (nil, .truncated(offset: offset, reason: "a frame's length is cut short at the end of the file"))
        }
        let rel = Int(offset - bufferStart)
        let bodyLength = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: rel, as: UInt32.self).littleEndian })
        if bodyLength == 0 { return (nil, .zeroFill(offset: offset)) }
        if bodyLength < LogFormat.frameHeaderSize || bodyLength > LogFormat.maxFrameBody {
            return (nil, .truncated(offset: offset, reason: "impossible frame length \(bodyLength)"))
        }
        let total = bodyLength + LogFormat.frameOverhead
        guard try ensure(offset, total) else {
            return (nil, .truncated(offset: offset, reason: "a frame of \(total) bytes runs past the end of the data (\(end - offset) bytes left)"))
        }
        let start = Int(offset - bufferStart)
        let found: Found? = try buffer.withUnsafeBytes { raw in
            let body = UnsafeRawBufferPointer(rebasing: raw[(start + 4)..<(start + 4 + bodyLength)])
            let crc = raw.loadUnaligned(fromByteOffset: start + 4 + bodyLength, as: UInt32.self).littleEndian
            guard let header = FrameIO.openBody(body, storedCRC: crc) else { return nil }
            try visitBody?(body, header)
            return Found(offset: offset, totalLength: total, header: header, storedCRC: crc)
        }
        guard let found else {
            return (nil, .corrupt(offset: offset, reason: "frame checksum or header does not match its contents"))
        }
        offset += UInt64(total)
        return (found, nil)
    }
}

extension FrameScanner {
    /// Visits every frame to the scanner's end with its payload decompressed, and throws at the first damage,
    /// naming `file`. The payload is decompressed into one buffer reused across frames (grown, never shrunk), and
    /// `body` gets exactly its `rawLength` bytes, valid during the call: reading the whole buffer would make every
    /// smaller frame after a larger one fail to decode.
    ///
    /// - Parameters:
    ///   - file: The file's path, for errors.
    ///   - decompressor: The context to decompress with (one per thread).
    ///   - dictionaries: The store's dictionaries.
    ///   - body: Called with each frame (its place and header) and its payload.
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` at damage, a decompression error, or what
    ///   `body` throws.
    mutating func forEachPayload(
        file: String, decompressor: ZstdDecompressor, dictionaries: DictionarySet,
        _ body: (Found, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var buffer: [UInt8] = []
        while true {
            let (found, stop) = try next { b, h in
                try FrameIO.payload(of: b, header: h, decompressor: decompressor, dictionaries: dictionaries, into: &buffer)
            }
            if let stop { throw stop.error(file: file) }
            guard let found else { return }
            try buffer.withUnsafeBytes { raw in try body(found, UnsafeRawBufferPointer(rebasing: raw[..<Int(found.header.rawLength)])) }
        }
    }
}
