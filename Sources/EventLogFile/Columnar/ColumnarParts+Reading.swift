import Foundation
import PawtrailIO

/// Reading the parts of stored bytes one at a time: a read of one event of a large commit decompresses and decodes
/// the part that holds it, not the whole commit.
extension ColumnarParts {
    /// One part's entry in the directory: its events, its rows' and layout's lengths, its groups, and where its
    /// groups' bytes start in the stored bytes.
    struct PartEntry {
        var events: Int
        var rowLength: Int
        var columnarLength: Int
        var groups: [(mode: Mode, raw: Int, stored: Int)]
        var offset: Int
    }

    /// Reads and checks the directory of stored bytes: every count and length bounded by what the frame allows, and
    /// the groups' bytes exactly what follows it.
    ///
    /// - Parameters:
    ///   - stored: What ``store(_:commitCount:parts:compressor:helper:level:)`` returned.
    ///   - commitCount: The payload's commits (from the frame header).
    ///   - eventCount: The payload's events (from the frame header).
    ///   - rawLength: The row payload's length (from the frame header).
    /// - Returns: The parts, in order.
    /// - Throws: ``ByteReaderError`` when the directory is damaged.
    static func directory(
        _ stored: UnsafeRawBufferPointer, commitCount: Int, eventCount: Int, rawLength: Int
    ) throws(ByteReaderError) -> [PartEntry] {
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
        var entries: [PartEntry] = []
        var storedTotal = 0
        for _ in 0..<partCount {
            let events = try number(eventCount, "a part's event count")
            let rowLength = try number(rawLength, "a part's row length")
            let columnarLength = try number(ColumnarPayload.maximumLength(rawLength: rowLength), "a part's columnar length")
            // A one-part payload is the frame's payload.
            guard partCount > 1 || rowLength == rawLength else {
                throw ByteReaderError(reason: "columnar part of \(rowLength) rows and \(columnarLength) bytes in a payload of \(rawLength)", offset: r.offset)
            }
            let partStart = storedTotal
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
            entries.append(PartEntry(events: events, rowLength: rowLength, columnarLength: columnarLength, groups: groups, offset: partStart))
        }
        guard storedTotal == r.remaining else {
            throw ByteReaderError(reason: "groups take \(storedTotal) bytes; \(r.remaining) are stored", offset: r.offset)
        }
        for i in entries.indices { entries[i].offset += r.offset }
        return entries
    }

    /// Decompresses one part's groups into the decompressor's scratch buffer (its first `part.columnarLength` bytes).
    static func decompressGroups(of part: PartEntry, in stored: UnsafeRawBufferPointer, decompressor: ZstdDecompressor) throws {
        if decompressor.scratch.count < part.columnarLength {
            decompressor.scratch.append(contentsOf: repeatElement(0, count: part.columnarLength - decompressor.scratch.count))
        }
        var at = 0
        var offset = part.offset
        for g in part.groups {
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

    /// Decodes one part of a commit stored in parts into its rows: its own commit header, with the part's event count
    /// (checked against the directory), then its events.
    ///
    /// - Parameters:
    ///   - part: The part, from ``directory(_:commitCount:eventCount:rawLength:)``.
    ///   - stored: The stored bytes it is in.
    ///   - decompressor: The context to decompress with (its ``ZstdDecompressor/scratch`` is used).
    ///   - rows: Receives the rows in its first `part.rowLength` bytes (grown when needed, never shrunk).
    /// - Returns: The part's recorded-at delta (each part carries its commit's) and where its events start in `rows`.
    /// - Throws: ``ZstdError`` or ``ByteReaderError`` when the bytes are damaged.
    static func decodeRows(
        of part: PartEntry, in stored: UnsafeRawBufferPointer, decompressor: ZstdDecompressor, into rows: inout [UInt8]
    ) throws -> (delta: Int64, eventsStart: Int) {
        try decompressGroups(of: part, in: stored, decompressor: decompressor)
        try decompressor.scratch.withUnsafeBytes { all in
            try ColumnarPayload.decode(
                UnsafeRawBufferPointer(rebasing: all[..<part.columnarLength]), commitCount: 1, rawLength: part.rowLength, into: &rows)
        }
        return try rows.withUnsafeBytes { raw in
            var r = ByteReader(UnsafeRawBufferPointer(rebasing: raw[..<part.rowLength]))
            let delta = try r.readSignedVarint()
            guard try r.readVarint() == UInt64(part.events), part.events > 0 else {
                throw ByteReaderError(reason: "a columnar part's commit header does not match its directory", offset: 0)
            }
            return (delta, r.offset)
        }
    }

    /// Decodes only the part that holds one event, from the stored bytes of one commit in several parts.
    ///
    /// - Parameters:
    ///   - stored: What ``store(_:commitCount:parts:compressor:helper:level:)`` returned.
    ///   - commitCount: The payload's commits (from the frame header).
    ///   - eventCount: The payload's events (from the frame header).
    ///   - rawLength: The row payload's length (from the frame header).
    ///   - event: The event's index in the commit, from 0.
    ///   - decompressor: The context to decompress with (its ``ZstdDecompressor/scratch`` is used).
    ///   - buffer: Receives the part's rows, a payload of one commit of the part's events, in its first `rowLength`
    ///     bytes (grown when needed, never shrunk).
    /// - Returns: `nil` when the bytes hold one part (decode them whole); else the part's number, the index of every
    ///   part's first event (the first is 0), and the part's event count and row length.
    /// - Throws: ``ZstdError`` or ``ByteReaderError`` when the bytes are damaged or `event` is not in the commit.
    static func decodePart(
        _ stored: UnsafeRawBufferPointer, commitCount: Int, eventCount: Int, rawLength: Int, holding event: Int,
        decompressor: ZstdDecompressor, into buffer: inout [UInt8]
    ) throws -> (part: Int, starts: [Int], events: Int, rowLength: Int)? {
        let parts = try directory(stored, commitCount: commitCount, eventCount: eventCount, rawLength: rawLength)
        guard parts.count > 1 else { return nil }
        var starts: [Int] = []
        var total = 0
        for p in parts {
            guard p.events > 0 else { throw ByteReaderError(reason: "a columnar part of no events", offset: 0) }
            starts.append(total)
            total += p.events
        }
        guard total == eventCount, (0..<eventCount).contains(event) else {
            throw ByteReaderError(reason: "columnar parts hold \(total) events; the frame says \(eventCount), event \(event) asked for", offset: 0)
        }
        let number = starts.lastIndex { $0 <= event }!
        let part = parts[number]
        _ = try decodeRows(of: part, in: stored, decompressor: decompressor, into: &buffer)
        return (number, starts, part.events, part.rowLength)
    }
}
