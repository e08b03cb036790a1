import Foundation
import PawtrailIO

/// The stored form of ``FrameCodec/columnarParts`` (format 3): a payload laid out by columns (``ColumnarPayload``,
/// layout version 2) in one or more parts, each part's column groups compressed on their own.
///
/// A compacted block is one part. A large commit is split at an event into two parts, laid out and compressed on two
/// cores at once: the split is the dearest step (about 2 µs an event on this machine, `pawtrail-bench layout`), and
/// the appending task waits for it. Each part of a split commit is laid out as a commit of its own (the commit's
/// header with the part's event count, then the part's events); decoding writes the commit's header once, with the
/// commit's event count, then every part's events.
///
/// Layout: part count (varint, 1 to ``maxParts``); per part: its event count (varint; 0 when there is one part),
/// its row length (varint: the part's rows as laid out, its own commit header included), its columnar length
/// (varint), and per ``ColumnarPayload/Group``: mode (u8, ``Mode``), raw length (varint), stored length (varint);
/// then every part's groups' bytes, part by part, group by group.
enum ColumnarParts {
    /// The most parts a frame may have.
    static let maxParts = 16

    /// How a group's bytes are stored.
    enum Mode: UInt8 {
        /// As they are: zstd could not make them smaller (random ids).
        case raw = 0
        /// One zstd frame.
        case zstd = 1
    }

    /// One part, laid out and compressed.
    private struct Part {
        var events: Int
        var rowLength: Int
        var columnarLength: Int
        var groups: [(mode: Mode, rawLength: Int, bytes: [UInt8])]
    }

    /// Lays out a payload by columns and compresses its groups.
    ///
    /// - Parameters:
    ///   - payload: A row payload as ``CommitCodec`` writes it.
    ///   - commitCount: Its commits.
    ///   - parts: How many parts to make: more than one splits a payload of one commit at its events, each part laid
    ///     out and compressed on a thread of its own (`helper` compresses the first); anything else is one part.
    ///   - compressor: The context of the calling thread.
    ///   - helper: A second context, for the first part on another thread.
    ///   - level: The zstd level.
    /// - Returns: The stored bytes, or `nil` when the payload does not lay out by columns (it is then stored as rows).
    /// - Throws: ``ZstdError``.
    static func store(
        _ payload: UnsafeRawBufferPointer, commitCount: Int, parts: Int, compressor: ZstdCompressor, helper: ZstdCompressor?,
        level: Int32
    ) throws -> [UInt8]? {
        let laidOut: [Part]
        if parts == 2, commitCount == 1, let helper, let (first, second) = split(payload) {
            let (firstPart, secondPart) = try HelperThread.both(
                there: { try first.rows.withUnsafeBytes { try encodePart($0, commitCount: 1, compressor: helper, level: level) } },
                here: { try second.rows.withUnsafeBytes { try encodePart($0, commitCount: 1, compressor: compressor, level: level) } })
            guard var a = firstPart, var b = secondPart else { return nil }
            a.events = first.events
            b.events = second.events
            laidOut = [a, b]
        } else {
            guard let only = try encodePart(payload, commitCount: commitCount, compressor: compressor, level: level) else { return nil }
            laidOut = [only]
        }
        var w = ByteWriter(capacity: laidOut.reduce(64) { $0 + $1.groups.reduce(0) { $0 + $1.bytes.count + 12 } })
        w.writeVarint(UInt64(laidOut.count))
        for part in laidOut {
            w.writeVarint(UInt64(part.events))
            w.writeVarint(UInt64(part.rowLength))
            w.writeVarint(UInt64(part.columnarLength))
            for g in part.groups {
                w.write(g.mode.rawValue)
                w.writeVarint(UInt64(g.rawLength))
                w.writeVarint(UInt64(g.bytes.count))
            }
        }
        for part in laidOut {
            for g in part.groups { w.write(bytes: g.bytes) }
        }
        return w.bytes
    }

    /// Splits a payload of one commit at its middle event into two payloads of one commit each.
    ///
    /// - Returns: The first part's rows with its event count, and the second's; `nil` when the payload does not parse
    ///   as one commit of at least two events (it is then laid out whole, or kept as rows).
    private static func split(_ payload: UnsafeRawBufferPointer) -> (first: (rows: [UInt8], events: Int), second: (rows: [UInt8], events: Int))? {
        var r = ByteReader(payload)
        guard let delta = try? r.readSignedVarint(), let count = try? r.readVarint(), count >= 2,
            count <= UInt64(payload.count / CommitCodec.minimumEventBytes)
        else { return nil }
        let eventsStart = r.offset
        let half = Int(count / 2)
        for _ in 0..<half {
            guard (try? CommitCodec.skipEvent(&r)) != nil else { return nil }
        }
        let cut = r.offset
        func rows(_ events: Int, _ range: Range<Int>) -> [UInt8] {
            var w = ByteWriter(capacity: range.count + 16)
            CommitCodec.encodeCommitHeader(recordedAtDelta: delta, eventCount: events, into: &w)
            w.write(bytes: UnsafeRawBufferPointer(rebasing: payload[range]))
            return w.bytes
        }
        let rest = Int(count) - half
        return ((rows(half, eventsStart..<cut), half), (rows(rest, cut..<payload.count), rest))
    }

    /// Lays out one part and compresses its groups; `nil` when it does not lay out.
    private static func encodePart(
        _ rows: UnsafeRawBufferPointer, commitCount: Int, compressor: ZstdCompressor, level: Int32
    ) throws -> Part? {
        guard let columnar = ColumnarPayload.encode(rows, commitCount: commitCount),
            let ends = try? columnar.withUnsafeBytes({ try ColumnarPayload.groupEnds(of: $0) }),
            ends.count == ColumnarPayload.Group.allCases.count
        else { return nil }
        var part = Part(events: 0, rowLength: rows.count, columnarLength: columnar.count, groups: [])
        var start = 0
        try columnar.withUnsafeBytes { all in
            for end in ends {
                let raw = UnsafeRawBufferPointer(rebasing: all[start..<end])
                var z: [UInt8] = []
                if !raw.isEmpty { try compressor.compress(raw, level: level, dictionary: nil, appendingTo: &z) }
                if raw.isEmpty || z.count >= raw.count {
                    part.groups.append((.raw, raw.count, Array(raw)))
                } else {
                    part.groups.append((.zstd, raw.count, z))
                }
                start = end
            }
        }
        return part
    }

    /// Decodes the stored bytes back into the row payload.
    ///
    /// - Parameters:
    ///   - stored: What ``store(_:commitCount:parts:compressor:helper:level:)`` returned.
    ///   - commitCount: The payload's commits (from the frame header).
    ///   - eventCount: The payload's events (from the frame header).
    ///   - rawLength: The row payload's length (from the frame header).
    ///   - decompressor: The context to decompress with (its ``ZstdDecompressor/scratch`` is used).
    ///   - buffer: Receives the payload in its first `rawLength` bytes (grown when needed, never shrunk).
    /// - Throws: ``ZstdError`` or ``ByteReaderError`` when the bytes are damaged.
    static func decode(
        _ stored: UnsafeRawBufferPointer, commitCount: Int, eventCount: Int, rawLength: Int,
        decompressor: ZstdDecompressor, into buffer: inout [UInt8]
    ) throws {
        var r = ByteReader(stored)
        /// A count or length that is not a length of stored bytes, bounded by what the frame allows.
        func number(_ limit: Int, _ what: String) throws(ByteReaderError) -> Int {
            let n = try r.readVarint()
            guard n <= UInt64(limit) else { throw ByteReaderError(reason: "\(what) \(n) exceeds \(limit)", offset: r.offset) }
            return Int(n)
        }
        let partCount = try r.readVarint()
        guard partCount >= 1, partCount <= UInt64(maxParts), partCount == 1 || commitCount == 1 else {
            throw ByteReaderError(reason: "\(partCount) columnar parts in a frame of \(commitCount) commits", offset: 0)
        }
        var descriptors: [(events: Int, rowLength: Int, columnarLength: Int, groups: [(mode: Mode, raw: Int, stored: Int)])] = []
        var storedTotal = 0
        for _ in 0..<partCount {
            let events = try number(eventCount, "a part's event count")
            let rowLength = try number(rawLength, "a part's row length")
            let columnarLength = try number(ColumnarPayload.maximumLength(rawLength: rowLength), "a part's columnar length")
            // A one-part payload is the frame's payload.
            guard partCount > 1 || rowLength == rawLength else {
                throw ByteReaderError(reason: "columnar part of \(rowLength) rows and \(columnarLength) bytes in a payload of \(rawLength)", offset: r.offset)
            }
            var groups: [(mode: Mode, raw: Int, stored: Int)] = []
            var rawTotal = 0
            for _ in ColumnarPayload.Group.allCases {
                guard let mode = Mode(rawValue: try r.read(UInt8.self)) else {
                    throw ByteReaderError(reason: "unknown group mode", offset: r.offset - 1)
                }
                let raw = try number(columnarLength, "a group's length")
                let size = try r.readLength()
                guard raw <= columnarLength, mode == .zstd || size == raw else {
                    throw ByteReaderError(reason: "group of \(raw) bytes stored in \(size)", offset: r.offset)
                }
                rawTotal += raw
                storedTotal += size
                groups.append((mode, raw, size))
            }
            guard rawTotal == columnarLength else {
                throw ByteReaderError(reason: "groups of \(rawTotal) bytes in a layout of \(columnarLength)", offset: r.offset)
            }
            descriptors.append((events, rowLength, columnarLength, groups))
        }
        guard storedTotal == r.remaining else {
            throw ByteReaderError(reason: "groups take \(storedTotal) bytes; \(r.remaining) are stored", offset: r.offset)
        }
        var offset = r.offset
        /// Decompresses one part's groups into the decompressor's scratch buffer.
        func columnar(_ d: (events: Int, rowLength: Int, columnarLength: Int, groups: [(mode: Mode, raw: Int, stored: Int)])) throws {
            if decompressor.scratch.count < d.columnarLength {
                decompressor.scratch.append(contentsOf: repeatElement(0, count: d.columnarLength - decompressor.scratch.count))
            }
            var at = 0
            for g in d.groups {
                let source = UnsafeRawBufferPointer(rebasing: stored[offset..<(offset + g.stored)])
                try decompressor.scratch.withUnsafeMutableBytes { out in
                    let destination = UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + g.raw)])
                    switch g.mode {
                    case .raw: if g.raw > 0 { destination.copyMemory(from: source) }
                    case .zstd: try decompressor.decompress(source, into: destination)
                    }
                }
                at += g.raw
                offset += g.stored
            }
        }
        if descriptors.count == 1 {
            let d = descriptors[0]
            try columnar(d)
            try decompressor.scratch.withUnsafeBytes { all in
                try ColumnarPayload.decode(
                    UnsafeRawBufferPointer(rebasing: all[..<d.columnarLength]), commitCount: commitCount, rawLength: rawLength, into: &buffer)
            }
            return
        }
        // Parts of one commit: its header once, with the whole count, then each part's events, each part's rows
        // rebuilt into a buffer kept with the decompressor (a fresh one for every frame cost page faults each time).
        if buffer.count < rawLength { buffer.append(contentsOf: repeatElement(0, count: rawLength - buffer.count)) }
        var written = 0
        var firstDelta: Int64?
        var events = 0
        for d in descriptors {
            try columnar(d)
            var rows = decompressor.secondScratch
            decompressor.secondScratch = []
            defer { decompressor.secondScratch = rows }
            try decompressor.scratch.withUnsafeBytes { all in
                try ColumnarPayload.decode(
                    UnsafeRawBufferPointer(rebasing: all[..<d.columnarLength]), commitCount: 1, rawLength: d.rowLength, into: &rows)
            }
            try rows.withUnsafeBytes { raw in
                var p = ByteReader(UnsafeRawBufferPointer(rebasing: raw[..<d.rowLength]))
                let delta = try p.readSignedVarint()
                guard try p.readVarint() == UInt64(d.events), d.events > 0, firstDelta == nil || firstDelta == delta else {
                    throw ByteReaderError(reason: "a columnar part's commit header does not match the others", offset: 0)
                }
                var head = ByteWriter(capacity: 20)
                if firstDelta == nil {
                    firstDelta = delta
                    CommitCodec.encodeCommitHeader(recordedAtDelta: delta, eventCount: eventCount, into: &head)
                }
                let body = UnsafeRawBufferPointer(rebasing: raw[p.offset..<d.rowLength])
                guard written + head.count + body.count <= rawLength else {
                    throw ByteReaderError(reason: "columnar parts hold more than the frame's \(rawLength) bytes", offset: written)
                }
                buffer.withUnsafeMutableBytes { out in
                    if head.count > 0 {
                        head.bytes.withUnsafeBytes { (out.baseAddress! + written).copyMemory(from: $0.baseAddress!, byteCount: head.count) }
                    }
                    if !body.isEmpty {
                        (out.baseAddress! + written + head.count).copyMemory(from: body.baseAddress!, byteCount: body.count)
                    }
                }
                written += head.count + body.count
            }
            events += d.events
        }
        guard events == eventCount, written == rawLength else {
            throw ByteReaderError(reason: "columnar parts hold \(events) events in \(written) bytes; the frame says \(eventCount) in \(rawLength)", offset: 0)
        }
    }
}
