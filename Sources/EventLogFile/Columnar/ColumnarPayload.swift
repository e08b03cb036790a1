import Foundation
import PawtrailIO

/// A frame payload (see ``CommitCodec``) laid out by columns, for a better compression ratio at rest: zstd finds
/// more to share among a block's stream ids, among its event ids, and among the values of one JSON field than in
/// rows where they alternate. The layout is a bijection on the payload's bytes: decoding gives back the row
/// payload exactly, so everything above the frame (views, checksums of index files, `log inspect`) is unchanged.
///
/// Each event's JSON data is split into a template and its values. The template is the text between the values
/// (keys, punctuation, whitespace, literals), kept once per block in a table of shapes; the values go into one
/// column per place in a shape. Values in canonical text forms are stored as binary: lowercase UUID strings as 16
/// bytes, `YYYY-MM-DDTHH:MM:SS.ffffffZ` strings as the difference in microseconds from the event's previous time (or,
/// for its first, from the column's previous one),
/// and integers without leading zeros as zigzag varints. Metadata is split the same way (its keys are the
/// template). The data is opaque to the log: bytes that are not JSON still split losslessly (strings and
/// numbers are found by their delimiters alone), and an event whose data would need too many shapes or places
/// keeps its bytes whole.
///
/// Layout: version u8 (1), shape count (varint), shapes, column count (varint), each column's length (varint),
/// then the columns. A shape: kind u8 (0 data, 1 metadata), hole count h (varint), h x (piece: varint length +
/// bytes, hole kind u8), last piece. Columns 0 to 6 hold, for every event or commit in order: the commit headers,
/// the stream ids, the versions, the event types (each as the row encodes it), the event ids, the shape ids (data
/// then metadata, varints; 0: kept whole), and what is kept whole (the row's bytes); shape n's holes then take the
/// next columns, in the order of the shapes.
///
/// Version 2 (format 3 stores; this build writes it and reads both) stores the same columns in another order: by
/// ``Group``, text first (after the header and shapes), then binary numbers, then random-looking ids, each group in
/// column order, so that ``ColumnarParts`` can compress each group on its own. One zstd frame over all of them
/// shares its entropy tables between text, varints and random bytes; by groups the workload's blocks take about 3
/// percent fewer bytes (`pawtrail-bench layout`).
enum ColumnarPayload {
    /// The layout version this build writes.
    static let formatVersion: UInt8 = 2
    static let fixedColumns = 7
    /// Bounds that keep the shape table small against the payload, whatever the data.
    static let maxShapes = 1024
    static let maxHolesPerShape = 64

    /// The most bytes a columnar layout may take for a row payload of `rawLength` bytes: a reader takes a longer
    /// one for damage before it decompresses it. The encoder keeps the rows instead, since the layout can take more
    /// than twice their bytes (events that each have a shape of their own, with many one-byte values: the shape
    /// table holds each piece with its length and each hole's kind, and each value has a column of its own).
    static func maximumLength(rawLength: Int) -> Int { rawLength * 2 + 4096 }

    enum Column {
        static let commits = 0
        static let streams = 1
        static let versions = 2
        static let types = 3
        static let ids = 4
        static let shapes = 5
        static let whole = 6
    }

    /// What a column holds, for compressing like with like.
    enum Group: Int, CaseIterable {
        /// Stream ids, event types, text values, bytes kept whole; the layout's header and shapes come first.
        case text = 0
        /// Varints: commit headers, versions, shape ids, times, integers.
        case binary = 1
        /// Event ids and UUID values: 16 random-looking bytes each (stored as they are when zstd cannot shrink them).
        case random = 2
    }

    /// The group of each fixed column.
    static let fixedGroups: [Group] = [.binary, .text, .binary, .text, .random, .binary, .text]

    /// The group of a hole's column.
    static func group(of hole: Hole) -> Group {
        switch hole {
        case .text: return .text
        case .uuid: return .random
        case .time, .integer: return .binary
        }
    }

    enum ShapeKind: UInt8 {
        case data = 0
        case metadata = 1
    }

    /// How a value between two pieces of a template is stored.
    enum Hole: UInt8 {
        /// As it is (data: varint length + bytes; metadata: the row's varint length + bytes).
        case text = 0
        /// A lowercase UUID string, as 16 bytes.
        case uuid = 1
        /// A canonical UTC timestamp string, as a zigzag varint of microseconds after the event's previous time, or
        /// for its first time the column's previous one.
        case time = 2
        /// A canonical integer, as a zigzag varint.
        case integer = 3
    }

    /// Lays a payload out by columns, and keeps the result only if it decodes back to the same bytes.
    ///
    /// - Parameters:
    ///   - payload: A row payload as ``CommitCodec`` writes it.
    ///   - commitCount: Its commits.
    /// - Returns: The columnar bytes, or `nil` when the payload does not parse as rows, does not round-trip, or
    ///   would lay out in more than ``maximumLength(rawLength:)``.
    static func encode(_ payload: UnsafeRawBufferPointer, commitCount: Int, version: UInt8 = formatVersion) -> [UInt8]? {
        var encoder = ColumnarEncoder()
        guard let encoded = try? encoder.encode(payload, commitCount: commitCount, version: version),
            encoded.count <= maximumLength(rawLength: payload.count)
        else { return nil }
        var check: [UInt8] = []
        let same = encoded.withUnsafeBytes { columnar in
            (try? decode(columnar, commitCount: commitCount, rawLength: payload.count, into: &check)) != nil
                && (payload.isEmpty || check.withUnsafeBytes { memcmp($0.baseAddress!, payload.baseAddress!, payload.count) == 0 })
        }
        return same ? encoded : nil
    }

    /// Where each ``Group``'s bytes end in a version 2 layout (the first group starts at 0, with the header).
    ///
    /// - Parameter columnar: What ``encode(_:commitCount:version:)`` returned.
    /// - Returns: One end a group, the last at `columnar.count`; a version 1 layout is one group.
    /// - Throws: ``ByteReaderError`` when the header does not parse.
    static func groupEnds(of columnar: UnsafeRawBufferPointer) throws(ByteReaderError) -> [Int] {
        try ColumnarDecoder(columnar).groupEnds
    }

    /// Decodes columnar bytes back into the row payload.
    ///
    /// - Parameters:
    ///   - columnar: What ``encode(_:commitCount:)`` returned.
    ///   - commitCount: The payload's commits (from the frame header).
    ///   - rawLength: The row payload's length (from the frame header).
    ///   - buffer: Receives the payload in its first `rawLength` bytes (grown when needed, never shrunk).
    /// - Throws: ``ByteReaderError`` when the bytes do not decode to exactly `rawLength` bytes.
    static func decode(
        _ columnar: UnsafeRawBufferPointer, commitCount: Int, rawLength: Int, into buffer: inout [UInt8]
    ) throws(ByteReaderError) {
        // Two bytes of slack: a data's length is written as two bytes before its length is known (see
        // ``ColumnarDecoder``), so the last event may briefly reach one byte past the payload. The buffer is
        // trimmed after, so that it grows as zstd's decompression grows it (to the payload's size, never shrunk).
        let before = buffer.count
        let room = rawLength + 2
        if buffer.count < room { buffer.append(contentsOf: repeatElement(0, count: room - buffer.count)) }
        defer {
            let keep = max(before, rawLength)
            if buffer.count > keep { buffer.removeLast(buffer.count - keep) }
        }
        let decoder = try ColumnarDecoder(columnar)
        var failure: ByteReaderError?
        buffer.withUnsafeMutableBytes { out in
            do throws(ByteReaderError) {
                try decoder.decode(commitCount: commitCount, rawLength: rawLength, into: UnsafeMutableRawBufferPointer(rebasing: out[..<room]))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
