import Foundation
import PawtrailIO

/// Turns a ``ColumnarPayload`` back into the row payload it was made from. Every read of a column and every
/// write of the output is bounds-checked (damaged bytes throw, never trap); the loops run on raw pointers because
/// every read of a compacted block pays for them.
struct ColumnarDecoder {
    private typealias Hole = ColumnarPayload.Hole
    private typealias Column = ColumnarPayload.Column

    /// A shape: its kind, its holes (a range of ``holes``) and the piece after its last hole.
    private struct ShapeInfo {
        var kind: UInt8
        var firstHole: Int
        var holeCount: Int
        var lastPieceStart: Int
        var lastPieceLength: Int
    }

    /// A hole with the piece before it. Hole `h` (across shapes) is column `fixedColumns + h`.
    private struct HoleInfo {
        var kind: UInt8
        var pieceStart: Int
        var pieceLength: Int
    }

    private let source: UnsafeRawBufferPointer
    private var shapes: [ShapeInfo] = []
    private var holes: [HoleInfo] = []
    private var columnStarts: [Int] = []
    private var columnEnds: [Int] = []
    /// Where each ``ColumnarPayload/Group``'s bytes end (version 2; a version 1 layout is one group).
    private(set) var groupEnds: [Int] = []

    /// Reads the shapes and the column directory.
    ///
    /// - Throws: ``ByteReaderError`` when they do not fit the bytes.
    init(_ source: UnsafeRawBufferPointer) throws(ByteReaderError) {
        self.source = source
        var r = ByteReader(source)
        let version = try r.read(UInt8.self)
        guard version == 1 || version == 2 else {
            throw ByteReaderError(reason: "unknown columnar layout version \(version)", offset: 0)
        }
        let shapeCount = try r.readVarint()
        guard shapeCount <= UInt64(ColumnarPayload.maxShapes) else {
            throw ByteReaderError(reason: "columnar payload names \(shapeCount) shapes", offset: r.offset)
        }
        for _ in 0..<shapeCount {
            guard let kind = ColumnarPayload.ShapeKind(rawValue: try r.read(UInt8.self)) else {
                throw ByteReaderError(reason: "unknown shape kind", offset: r.offset - 1)
            }
            let holeCount = try r.readVarint()
            guard holeCount <= UInt64(ColumnarPayload.maxHolesPerShape) else {
                throw ByteReaderError(reason: "shape with \(holeCount) holes", offset: r.offset)
            }
            var shape = ShapeInfo(kind: kind.rawValue, firstHole: holes.count, holeCount: Int(holeCount), lastPieceStart: 0, lastPieceLength: 0)
            for i in 0...Int(holeCount) {
                let length = try r.readLength()
                let start = r.offset
                _ = try r.readView(length)
                if i < Int(holeCount) {
                    guard let hole = Hole(rawValue: try r.read(UInt8.self)), kind == .data || hole == .text || hole == .uuid else {
                        throw ByteReaderError(reason: "unknown hole kind", offset: r.offset - 1)
                    }
                    holes.append(HoleInfo(kind: hole.rawValue, pieceStart: start, pieceLength: length))
                } else {
                    shape.lastPieceStart = start
                    shape.lastPieceLength = length
                }
            }
            shapes.append(shape)
        }
        let columnCount = ColumnarPayload.fixedColumns + holes.count
        guard try r.readVarint() == UInt64(columnCount) else {
            throw ByteReaderError(reason: "column count does not match the shapes", offset: r.offset)
        }
        var lengths: [Int] = []
        for _ in 0..<columnCount { lengths.append(try r.readLength()) }
        columnStarts = Array(repeating: 0, count: columnCount)
        columnEnds = Array(repeating: 0, count: columnCount)
        // Version 1 stores the columns in their order; version 2 by group, each group in column order.
        let order: [ColumnarPayload.Group?] = version == 1 ? [nil] : ColumnarPayload.Group.allCases
        let groups = ColumnarPayload.fixedGroups + holes.map { ColumnarPayload.group(of: Hole(rawValue: $0.kind) ?? .text) }
        for group in order {
            for (i, length) in lengths.enumerated() {
                if let group, groups[i] != group { continue }
                guard length <= r.remaining else { throw ByteReaderError(reason: "column runs past the payload", offset: r.offset) }
                columnStarts[i] = r.offset
                columnEnds[i] = r.offset + length
                r.offset += length
            }
            groupEnds.append(r.offset)
        }
        guard r.isAtEnd else { throw ByteReaderError(reason: "bytes after the last column", offset: r.offset) }
    }

    /// Each column's bytes with the kind of what it holds (for ``ColumnarLayoutMeasurement``).
    func columns() -> [(String, UnsafeRawBufferPointer)] {
        let fixed = ["commit headers", "stream ids", "versions", "event types", "event ids", "shape ids", "kept whole"]
        let kinds = ["strings", "UUIDs", "times", "integers"]
        return columnStarts.indices.map { i in
            let kind = i < fixed.count ? fixed[i] : kinds[Int(holes[i - fixed.count].kind)]
            return (kind, UnsafeRawBufferPointer(rebasing: source[columnStarts[i]..<columnEnds[i]]))
        }
    }

    /// Writes the row payload at the start of `out`; it must take exactly `rawLength` bytes (`out` has room for more).
    func decode(commitCount: Int, rawLength: Int, into out: UnsafeMutableRawBufferPointer) throws(ByteReaderError) {
        guard let src = source.baseAddress else { throw ByteReaderError(reason: "empty columnar payload", offset: 0) }
        guard let dst = out.baseAddress ?? (out.count == 0 ? UnsafeMutableRawPointer(mutating: src) : nil) else {
            throw ByteReaderError(reason: "no output", offset: 0)
        }
        let count = columnStarts.count
        let positions = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let times = UnsafeMutablePointer<Int64>.allocate(capacity: count)
        defer {
            positions.deallocate()
            times.deallocate()
        }
        columnStarts.withUnsafeBufferPointer { positions.initialize(from: $0.baseAddress!, count: count) }
        times.initialize(repeating: 0, count: count)
        try columnEnds.withUnsafeBufferPointer { ends throws(ByteReaderError) in
            var state = State(src: src, positions: positions, ends: ends.baseAddress!, times: times, dst: dst, capacity: out.count)
            try shapes.withUnsafeBufferPointer { shapes throws(ByteReaderError) in
                try holes.withUnsafeBufferPointer { holes throws(ByteReaderError) in
                    try Self.run(&state, commitCount: commitCount, shapes: shapes, holes: holes)
                }
            }
            guard state.w == rawLength, (0..<count).allSatisfy({ positions[$0] == ends[$0] }) else {
                throw ByteReaderError(
                    reason: "columnar payload decodes to \(state.w) bytes, or leaves column bytes unread; the frame says \(rawLength)",
                    offset: state.w)
            }
        }
    }

    private static func run(
        _ s: inout State, commitCount: Int, shapes: UnsafeBufferPointer<ShapeInfo>, holes: UnsafeBufferPointer<HoleInfo>
    ) throws(ByteReaderError) {
        for _ in 0..<commitCount {
            _ = try s.copyVarint(Column.commits)
            let events = try s.copyVarint(Column.commits)
            var left = events
            while left > 0 {
                left -= 1
                try s.copyLengthPrefixed(Column.streams)
                _ = try s.copyVarint(Column.versions)
                try s.copyLengthPrefixed(Column.types)
                try s.copyFixed(Column.ids, 16)
                let dataShape = try s.readVarint(Column.shapes)
                let metadataShape = try s.readVarint(Column.shapes)
                if metadataShape == 0 {
                    let pairs = try s.copyVarint(Column.whole)
                    guard pairs <= UInt64(s.capacity) else { throw s.error("metadata pair count past the payload") }
                    for _ in 0..<pairs {
                        try s.copyLengthPrefixed(Column.whole)
                        try s.copyLengthPrefixed(Column.whole)
                    }
                } else {
                    try fill(&s, shape: metadataShape, kind: .metadata, shapes: shapes, holes: holes)
                }
                if dataShape == 0 {
                    try s.copyLengthPrefixed(Column.whole)
                } else {
                    try fill(&s, shape: dataShape, kind: .data, shapes: shapes, holes: holes)
                }
            }
        }
    }

    private static func fill(
        _ s: inout State, shape id: UInt64, kind: ColumnarPayload.ShapeKind, shapes: UnsafeBufferPointer<ShapeInfo>,
        holes: UnsafeBufferPointer<HoleInfo>
    ) throws(ByteReaderError) {
        guard id <= UInt64(shapes.count), shapes[Int(id) - 1].kind == kind.rawValue else {
            throw s.error("an event names shape \(id), not a \(kind) shape")
        }
        let shape = shapes[Int(id) - 1]
        let data = kind == .data
        // The data's length goes first, and is known only once the data is written: the data is written two bytes
        // on (a length of 128 to 16,383 bytes, most of them), and moved when its length takes another count of bytes.
        let lengthAt = s.w
        if data {
            guard s.capacity - s.w >= 2 else { throw s.error("columnar payload decodes past the frame's length") }
            s.w += 2
        }
        let base = ColumnarPayload.fixedColumns + shape.firstHole
        s.eventTime = nil
        for h in 0..<shape.holeCount {
            let hole = holes[shape.firstHole + h]
            try s.copySource(hole.pieceStart, hole.pieceLength)
            let column = base + h
            switch hole.kind {
            case Hole.text.rawValue:
                if data {
                    let length = try s.readVarint(column)
                    try s.copyFixed(column, length)
                } else {
                    try s.copyLengthPrefixed(column)
                }
            case Hole.uuid.rawValue:
                try s.writeUUID(column, lengthPrefixed: !data)
            case Hole.time.rawValue:
                try s.writeTime(column)
            default:
                try s.writeInteger(column)
            }
        }
        try s.copySource(shape.lastPieceStart, shape.lastPieceLength)
        if data { try s.placeLength(at: lengthAt) }
    }

    static func decimalLength(_ value: Int64) -> Int {
        var n = value < 0 ? 2 : 1
        var m = value.magnitude
        while m >= 10 {
            m /= 10
            n += 1
        }
        return n
    }

    /// The cursors of one decode: a position and an end per column, the previous time per column, and the output.
    private struct State {
        let src: UnsafeRawPointer
        let positions: UnsafeMutablePointer<Int>
        let ends: UnsafePointer<Int>
        let times: UnsafeMutablePointer<Int64>
        let dst: UnsafeMutableRawPointer
        let capacity: Int
        var w = 0
        /// The event's last time so far (see ``ColumnarEncoder``).
        var eventTime: Int64?
        /// The last day a time was written for, and its `YYYY-MM-DDT` text (the times of a block share few days).
        var day = Int64.min
        var dayText: (UInt64, UInt16, UInt8) = (0, 0, 0)

        func error(_ reason: String) -> ByteReaderError { ByteReaderError(reason: reason, offset: w) }

        @inline(__always) func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

        /// The varint at a column's position, and where it ends, without moving.
        @inline(__always) func varintAt(_ column: Int) throws(ByteReaderError) -> (UInt64, Int) {
            var p = positions[column]
            let end = ends[column]
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard p < end else { throw error("a varint runs past its column") }
                let b = src.load(fromByteOffset: p, as: UInt8.self)
                p += 1
                guard shift < 63 || (shift == 63 && b <= 1) else { throw error("varint too long") }
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return (result, p) }
                shift += 7
            }
        }

        @inline(__always) mutating func readVarint(_ column: Int) throws(ByteReaderError) -> UInt64 {
            let (v, next) = try varintAt(column)
            positions[column] = next
            return v
        }

        @inline(__always) mutating func write(_ from: UnsafeRawPointer, _ count: Int) throws(ByteReaderError) {
            guard count <= capacity - w else { throw error("columnar payload decodes past the frame's length") }
            let to = dst + w
            // Most copies are a few bytes (a key, a varint); a call to memmove costs more than they do.
            if count >= 8 && count <= 16 {
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                (to + count - 8).storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), as: UInt64.self)
            } else if count < 8 {
                var i = 0
                while i < count {
                    to.storeBytes(of: from.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self)
                    i += 1
                }
            } else {
                to.copyMemory(from: from, byteCount: count)
            }
            w += count
        }

        /// Copies a varint as its column holds it; returns its value.
        @inline(__always) mutating func copyVarint(_ column: Int) throws(ByteReaderError) -> UInt64 {
            let start = positions[column]
            let (v, next) = try varintAt(column)
            try write(src + start, next - start)
            positions[column] = next
            return v
        }

        @inline(__always) mutating func copyFixed(_ column: Int, _ count: UInt64) throws(ByteReaderError) {
            let start = positions[column]
            guard count <= UInt64(ends[column] - start) else { throw error("a value runs past its column") }
            try write(src + start, Int(count))
            positions[column] = start + Int(count)
        }

        /// Copies a varint length and the bytes after it, as the column holds them.
        @inline(__always) mutating func copyLengthPrefixed(_ column: Int) throws(ByteReaderError) {
            let start = positions[column]
            let (length, next) = try varintAt(column)
            guard length <= UInt64(ends[column] - next) else { throw error("a value runs past its column") }
            try write(src + start, next - start + Int(length))
            positions[column] = next + Int(length)
        }

        @inline(__always) mutating func copySource(_ start: Int, _ count: Int) throws(ByteReaderError) {
            try write(src + start, count)
        }

        /// Writes the varint length of what was written after the two bytes left at `at`, moving it when the
        /// varint takes other than two bytes.
        mutating func placeLength(at: Int) throws(ByteReaderError) {
            let length = w - at - 2
            var size = 1
            while length >> (7 * size) > 0 { size += 1 }
            if size != 2 {
                guard size - 2 <= capacity - w else { throw error("columnar payload decodes past the frame's length") }
                memmove(dst + at + size, dst + at + 2, length)
                w += size - 2
            }
            var v = UInt64(length)
            for i in 0..<size {
                dst.storeBytes(of: UInt8(truncatingIfNeeded: v) | (i < size - 1 ? 0x80 : 0), toByteOffset: at + i, as: UInt8.self)
                v >>= 7
            }
        }

        mutating func writeUUID(_ column: Int, lengthPrefixed: Bool) throws(ByteReaderError) {
            let start = positions[column]
            guard ends[column] - start >= 16 else { throw error("a UUID runs past its column") }
            let needed = CanonicalText.uuidLength + (lengthPrefixed ? 1 : 0)
            guard needed <= capacity - w else { throw error("columnar payload decodes past the frame's length") }
            let high = UInt64(bigEndian: src.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            let low = UInt64(bigEndian: src.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
            if lengthPrefixed {
                dst.storeBytes(of: UInt8(CanonicalText.uuidLength), toByteOffset: w, as: UInt8.self)
                w += 1
            }
            CanonicalText.writeUUID((high, low), to: dst + w)
            w += CanonicalText.uuidLength
            positions[column] = start + 16
        }

        mutating func writeTime(_ column: Int) throws(ByteReaderError) {
            let t = (eventTime ?? times[column]) &+ unzigzag(try readVarint(column))
            times[column] = t
            eventTime = t
            guard CanonicalText.timeLength <= capacity - w else { throw error("columnar payload decodes past the frame's length") }
            let (d, time) = CanonicalText.dayAndTime(t)
            let to = dst + w
            if d != day {
                guard CanonicalText.writeDate(d, to: to) else { throw error("a timestamp outside the years 0000 to 9999") }
                day = d
                dayText = (to.loadUnaligned(as: UInt64.self), to.loadUnaligned(fromByteOffset: 8, as: UInt16.self), to.load(fromByteOffset: 10, as: UInt8.self))
            } else {
                to.storeBytes(of: dayText.0, as: UInt64.self)
                to.storeBytes(of: dayText.1, toByteOffset: 8, as: UInt16.self)
                to.storeBytes(of: dayText.2, toByteOffset: 10, as: UInt8.self)
            }
            CanonicalText.writeTimeOfDay(time, to: to + 11)
            w += CanonicalText.timeLength
        }

        mutating func writeInteger(_ column: Int) throws(ByteReaderError) {
            let value = unzigzag(try readVarint(column))
            let length = ColumnarDecoder.decimalLength(value)
            guard length <= capacity - w else { throw error("columnar payload decodes past the frame's length") }
            var m = value.magnitude
            var p = w + length - 1
            repeat {
                dst.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10), toByteOffset: p, as: UInt8.self)
                m /= 10
                p -= 1
            } while m > 0
            if value < 0 { dst.storeBytes(of: UInt8(ascii: "-"), toByteOffset: w, as: UInt8.self) }
            w += length
        }
    }
}
