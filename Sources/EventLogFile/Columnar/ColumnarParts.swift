import Foundation
import PawtrailIO

/// The stored form of ``FrameCodec/columnarParts`` (format 3): a payload laid out by columns (``ColumnarPayload``,
/// layout version 2) in one or more parts, each part's column groups compressed on their own.
///
/// A compacted block is one part. A large commit is split at its events into parts of about ``partRowBytes``, so that
/// a read of one event decodes its part only (``decodePart(_:commitCount:eventCount:rawLength:holding:decompressor:into:)``);
/// the parts are laid out and compressed on two cores at once, since the appending task waits (the layout is the
/// dearest step, about 2 µs an event on this machine, `pawtrail-bench layout`). Each part of a split commit is laid out
/// as a commit of its own (the commit's header with the part's event count, then the part's events); decoding the
/// whole writes the commit's header once, with the commit's event count, then every part's events.
///
/// Layout: part count (varint, 1 to ``maxParts``); per part: its event count (varint; 0 when there is one part),
/// its row length (varint: the part's rows as laid out, its own commit header included), its columnar length
/// (varint), and per ``ColumnarPayload/Group``: mode (u8, ``Mode``), raw length (varint), stored length (varint);
/// then every part's groups' bytes, part by part, group by group.
enum ColumnarParts {
    /// The most parts a frame may have.
    static let maxParts = 16

    /// The rows a part of a large commit holds, about: a read of one event decodes this much. Smaller parts read
    /// faster and compress worse (each group's zstd frame starts with no history).
    static let partRowBytes = 128 << 10

    /// How many parts a commit of `rowLength` bytes is stored in: one per ``partRowBytes``, at most ``maxParts``.
    static func parts(forCommitOf rowLength: Int) -> Int { min(maxParts, max(1, rowLength / partRowBytes)) }

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
    ///   - parts: How many parts to make (at most ``maxParts``): more than one splits a payload of one commit at its
    ///     events, the first half of the parts laid out and compressed with `helper` on another thread when given;
    ///     a payload of several commits is one part.
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
        if parts >= 2, commitCount == 1, let pieces = split(payload, into: min(parts, maxParts)) {
            let cut = pieces.count / 2
            if let helper {
                let first = pieces[..<cut]
                let (a, b) = try HelperThread.both(
                    there: { try encodeParts(first, compressor: helper, level: level) },
                    here: { try encodeParts(pieces[cut...], compressor: compressor, level: level) })
                guard let a, let b else { return nil }
                laidOut = a + b
            } else {
                guard let all = try encodeParts(pieces[...], compressor: compressor, level: level) else { return nil }
                laidOut = all
            }
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

    /// Splits a payload of one commit into `count` payloads of one commit each, of as near equal event counts as may be.
    ///
    /// - Returns: Each piece's rows with its event count, in order; `nil` when the payload does not parse as one commit
    ///   of at least two events (it is then laid out whole, or kept as rows).
    private static func split(_ payload: UnsafeRawBufferPointer, into count: Int) -> [(rows: [UInt8], events: Int)]? {
        var r = ByteReader(payload)
        guard let delta = try? r.readSignedVarint(), let events = try? r.readVarint(), events >= 2,
            events <= UInt64(payload.count / CommitCodec.minimumEventBytes)
        else { return nil }
        let pieces = min(count, Int(events))
        var pieceStart = r.offset
        var firstEvent = 0
        var out: [(rows: [UInt8], events: Int)] = []
        out.reserveCapacity(pieces)
        for piece in 0..<pieces {
            let endEvent = Int(events) * (piece + 1) / pieces
            for _ in firstEvent..<endEvent {
                guard (try? CommitCodec.skipEvent(&r)) != nil else { return nil }
            }
            var w = ByteWriter(capacity: r.offset - pieceStart + 16)
            CommitCodec.encodeCommitHeader(recordedAtDelta: delta, eventCount: endEvent - firstEvent, into: &w)
            w.write(bytes: UnsafeRawBufferPointer(rebasing: payload[pieceStart..<r.offset]))
            out.append((w.bytes, endEvent - firstEvent))
            pieceStart = r.offset
            firstEvent = endEvent
        }
        guard r.isAtEnd else { return nil }
        return out
    }

    /// Lays out and compresses pieces of one commit with one context, in order; `nil` when one does not lay out.
    private static func encodeParts(
        _ pieces: ArraySlice<(rows: [UInt8], events: Int)>, compressor: ZstdCompressor, level: Int32
    ) throws -> [Part]? {
        var out: [Part] = []
        for piece in pieces {
            guard var part = try piece.rows.withUnsafeBytes({ try encodePart($0, commitCount: 1, compressor: compressor, level: level) })
            else { return nil }
            part.events = piece.events
            out.append(part)
        }
        return out
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
        let descriptors = try directory(stored, commitCount: commitCount, eventCount: eventCount, rawLength: rawLength)
        if descriptors.count == 1 {
            let d = descriptors[0]
            try decompressGroups(of: d, in: stored, decompressor: decompressor)
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
            var rows = decompressor.secondScratch
            decompressor.secondScratch = []
            defer { decompressor.secondScratch = rows }
            let (delta, eventsStart) = try decodeRows(of: d, in: stored, decompressor: decompressor, into: &rows)
            guard firstDelta == nil || firstDelta == delta else {
                throw ByteReaderError(reason: "a columnar part's commit header does not match the others", offset: 0)
            }
            try rows.withUnsafeBytes { raw in
                var head = ByteWriter(capacity: 20)
                if firstDelta == nil {
                    firstDelta = delta
                    CommitCodec.encodeCommitHeader(recordedAtDelta: delta, eventCount: eventCount, into: &head)
                }
                let body = UnsafeRawBufferPointer(rebasing: raw[eventsStart..<d.rowLength])
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
