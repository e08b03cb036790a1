import Foundation
import PawtrailIO

/// Builds a ``ColumnarPayload`` from a row payload: one encoder a payload.
struct ColumnarEncoder {
    private typealias Hole = ColumnarPayload.Hole
    private typealias Column = ColumnarPayload.Column

    /// A value found in an event, before it is written to its column.
    private struct Value {
        var hole: Hole
        /// The value's bytes in the payload (text).
        var start: Int
        var end: Int
        /// The binary value: uuid halves, microseconds, or the integer.
        var a: UInt64
        var b: UInt64
    }

    private let columns = ColumnBuffers(columns: ColumnarPayload.fixedColumns)
    private var groups = ColumnarPayload.fixedGroups
    private var previousTimes = [Int64](repeating: 0, count: ColumnarPayload.fixedColumns)
    /// An open-addressing table of shape ids (0: empty) by their hash, twice as many slots as shapes can be: looking a
    /// shape up allocates nothing, where a dictionary keyed by the shape's bytes took a copy of them for every event.
    private var slots = [Int32](repeating: 0, count: ColumnarPayload.maxShapes * 2)
    private var shapeHashes: [UInt64] = []
    /// Where each shape's bytes are in ``shapeTable``.
    private var shapeRanges: [Range<Int>] = []
    private var shapeBases: [Int] = []
    private var shapeTable = ByteWriter()
    private var values: [Value] = []

    /// Lays out the payload; see ``ColumnarPayload``.
    ///
    /// - Throws: ``ByteReaderError`` when the payload does not parse as rows.
    /// - Parameter version: The layout version: 2 stores the columns by group, 1 in their order.
    mutating func encode(_ payload: UnsafeRawBufferPointer, commitCount: Int, version: UInt8) throws(ByteReaderError) -> [UInt8] {
        var r = ByteReader(payload)
        for _ in 0..<commitCount {
            var start = r.offset
            _ = try r.readSignedVarint()
            let count = try r.readVarint()
            guard count <= UInt64(r.remaining / CommitCodec.minimumEventBytes) else {
                throw ByteReaderError(reason: "commit event count exceeds the payload", offset: r.offset)
            }
            copy(payload, start, r.offset, to: Column.commits)
            for _ in 0..<count {
                start = r.offset
                _ = try r.readView(try r.readLength())
                copy(payload, start, r.offset, to: Column.streams)
                start = r.offset
                _ = try r.readVarint()
                copy(payload, start, r.offset, to: Column.versions)
                start = r.offset
                _ = try r.readView(try r.readLength())
                copy(payload, start, r.offset, to: Column.types)
                columns.write(column: Column.ids, try r.readView(16))
                let metadataShape = try splitMetadata(payload, &r)
                let dataStart = r.offset
                let data = try r.readView(try r.readLength())
                let dataShape = splitData(payload, data: data, dataStart: dataStart, dataEnd: r.offset)
                columns.writeVarint(column: Column.shapes, UInt64(dataShape))
                columns.writeVarint(column: Column.shapes, UInt64(metadataShape))
            }
        }
        guard r.isAtEnd else { throw ByteReaderError(reason: "payload has bytes after its commits", offset: r.offset) }
        var out = ByteWriter(capacity: (0..<columns.count).reduce(shapeTable.count + 64) { $0 + columns.bytes(column: $1).count + 4 })
        out.write(version)
        out.writeVarint(UInt64(shapeBases.count))
        out.write(bytes: shapeTable.bytes)
        out.writeVarint(UInt64(columns.count))
        for c in 0..<columns.count { out.writeVarint(UInt64(columns.bytes(column: c).count)) }
        if version == 1 {
            for c in 0..<columns.count { out.write(bytes: columns.bytes(column: c)) }
        } else {
            for group in ColumnarPayload.Group.allCases {
                for c in 0..<columns.count where groups[c] == group { out.write(bytes: columns.bytes(column: c)) }
            }
        }
        return out.bytes
    }

    private mutating func copy(_ payload: UnsafeRawBufferPointer, _ start: Int, _ end: Int, to column: Int) {
        columns.write(column: column, UnsafeRawBufferPointer(rebasing: payload[start..<end]))
    }

    /// Splits an event's metadata (count, then key and value pairs) into a template of its keys and its values.
    ///
    /// - Returns: Its shape id (0: kept whole).
    private mutating func splitMetadata(_ payload: UnsafeRawBufferPointer, _ r: inout ByteReader) throws(ByteReaderError) -> Int {
        let start = r.offset
        guard let count = Int(exactly: try r.readVarint()), count <= r.remaining / 2 else {
            throw ByteReaderError(reason: "metadata count exceeds the payload", offset: r.offset)
        }
        columns.clearScratch()
        values.removeAll(keepingCapacity: true)
        var pieceStart = start
        for _ in 0..<count {
            _ = try r.readView(try r.readLength())
            let valueStart = r.offset
            let value = try r.readView(try r.readLength())
            addPiece(payload, pieceStart, valueStart)
            if r.offset - valueStart == CanonicalText.uuidLength + 1, let id = CanonicalText.uuid(value) {
                values.append(Value(hole: .uuid, start: valueStart, end: r.offset, a: id.0, b: id.1))
            } else {
                values.append(Value(hole: .text, start: valueStart, end: r.offset, a: 0, b: 0))
            }
            columns.writeScratch(byte: values[values.count - 1].hole.rawValue)
            pieceStart = r.offset
        }
        addPiece(payload, pieceStart, r.offset)
        // More pairs than a shape holds are kept whole, as data's places are: the decoder refuses such a shape, and
        // the whole block would go back to rows.
        guard values.count <= ColumnarPayload.maxHolesPerShape, let shape = shapeID(kind: .metadata) else {
            copy(payload, start, r.offset, to: Column.whole)
            return 0
        }
        writeValues(payload, shape: shape, lengthPrefixed: false)
        return shape
    }

    /// Splits JSON data into a template and its string and number values.
    ///
    /// - Returns: Its shape id (0: kept whole).
    private mutating func splitData(_ payload: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer, dataStart: Int, dataEnd: Int) -> Int {
        columns.clearScratch()
        values.removeAll(keepingCapacity: true)
        let base = dataEnd - data.count
        let n = data.count
        var pieceStart = 0
        var i = 0
        func piece(_ end: Int) { addPiece(payload, base + pieceStart, base + end) }
        while i < n, values.count <= ColumnarPayload.maxHolesPerShape {
            let c = data[i]
            if c == UInt8(ascii: "\"") {
                var j = Self.quoteOrBackslash(data, from: i + 1)
                while j < n, data[j] != UInt8(ascii: "\"") { j = Self.quoteOrBackslash(data, from: j + 2) }
                guard j < n else { break }
                var k = j + 1
                while k < n, data[k] == 0x20 || data[k] == 0x0A || data[k] == 0x0D || data[k] == 0x09 { k += 1 }
                if k < n, data[k] == UInt8(ascii: ":") {
                    i = k + 1
                    continue
                }
                piece(i + 1)
                let inner = UnsafeRawBufferPointer(rebasing: data[(i + 1)..<j])
                var v = Value(hole: .text, start: base + i + 1, end: base + j, a: 0, b: 0)
                if let id = CanonicalText.uuid(inner) {
                    v.hole = .uuid
                    (v.a, v.b) = id
                } else if let t = CanonicalText.time(inner) {
                    v.hole = .time
                    v.a = UInt64(bitPattern: t)
                }
                values.append(v)
                columns.writeScratch(byte: v.hole.rawValue)
                pieceStart = j
                i = j + 1
            } else if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                var j = i + 1
                while j < n, Self.isNumberByte(data[j]) { j += 1 }
                piece(i)
                var v = Value(hole: .text, start: base + i, end: base + j, a: 0, b: 0)
                if let value = Self.canonicalInteger(UnsafeRawBufferPointer(rebasing: data[i..<j])) {
                    v.hole = .integer
                    v.a = UInt64(bitPattern: value)
                }
                values.append(v)
                columns.writeScratch(byte: v.hole.rawValue)
                pieceStart = j
                i = j
            } else {
                i += 1
            }
        }
        guard values.count <= ColumnarPayload.maxHolesPerShape else {
            copy(payload, dataStart, dataEnd, to: Column.whole)
            return 0
        }
        piece(n)
        guard let shape = shapeID(kind: .data) else {
            copy(payload, dataStart, dataEnd, to: Column.whole)
            return 0
        }
        writeValues(payload, shape: shape, lengthPrefixed: true)
        return shape
    }

    private mutating func addPiece(_ payload: UnsafeRawBufferPointer, _ start: Int, _ end: Int) {
        columns.writeScratchVarint(UInt64(end - start))
        columns.writeScratch(UnsafeRawBufferPointer(rebasing: payload[start..<end]))
    }

    /// The id of the shape in `signature` (pieces and hole kinds, interleaved), added to the table when new.
    private mutating func shapeID(kind: ColumnarPayload.ShapeKind) -> Int? {
        // The shape's bytes are its kind, its hole count and the signature: hashed and compared in those three parts.
        var head: (UInt8, UInt8, UInt8) = (kind.rawValue, 0, 0)
        var headCount = 2
        if values.count < 0x80 {
            head.1 = UInt8(values.count)
        } else {
            head.1 = UInt8(truncatingIfNeeded: values.count) | 0x80
            head.2 = UInt8(values.count >> 7)
            headCount = 3
        }
        let signature = columns.scratchBytes
        let hash = withUnsafeBytes(of: head) { Self.hash(UnsafeRawBufferPointer(rebasing: $0[..<headCount]), then: signature) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot])
            if shapeHashes[id - 1] == hash, same(id, head: head, headCount: headCount, signature: signature) { return id }
            slot = (slot + 1) & mask
        }
        guard shapeBases.count < ColumnarPayload.maxShapes, shapeTable.count + signature.count + headCount <= 1 << 20 else { return nil }
        shapeBases.append(columns.count)
        for v in values {
            columns.addColumn()
            groups.append(ColumnarPayload.group(of: v.hole))
            previousTimes.append(0)
        }
        let start = shapeTable.count
        withUnsafeBytes(of: head) { shapeTable.write(bytes: UnsafeRawBufferPointer(rebasing: $0[..<headCount])) }
        shapeTable.write(bytes: signature)
        shapeRanges.append(start..<shapeTable.count)
        shapeHashes.append(hash)
        slots[slot] = Int32(shapeBases.count)
        return shapeBases.count
    }

    /// Whether shape `id`'s bytes are the head and the signature.
    private func same(_ id: Int, head: (UInt8, UInt8, UInt8), headCount: Int, signature sig: UnsafeRawBufferPointer) -> Bool {
        let range = shapeRanges[id - 1]
        guard range.count == headCount + sig.count else { return false }
        return shapeTable.bytes.withUnsafeBytes { table in
            withUnsafeBytes(of: head) { h in
                memcmp(table.baseAddress! + range.lowerBound, h.baseAddress!, headCount) == 0
                    && (sig.isEmpty || memcmp(table.baseAddress! + range.lowerBound + headCount, sig.baseAddress!, sig.count) == 0)
            }
        }
    }

    /// FNV-1a over the head's bytes then the signature's, the signature a word at a time (a byte at a time was most of
    /// the encoder's time when shapes were hashed by `Hasher`).
    private static func hash(_ head: UnsafeRawBufferPointer, then bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in head { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return h
    }

    private mutating func writeValues(_ payload: UnsafeRawBufferPointer, shape: Int, lengthPrefixed: Bool) {
        let base = shapeBases[shape - 1]
        var eventTime: Int64?
        for (i, v) in values.enumerated() {
            let column = base + i
            switch v.hole {
            case .text:
                if lengthPrefixed { columns.writeVarint(column: column, UInt64(v.end - v.start)) }
                copy(payload, v.start, v.end, to: column)
            case .uuid:
                columns.writeBigEndian(column: column, v.a)
                columns.writeBigEndian(column: column, v.b)
            case .time:
                let t = Int64(bitPattern: v.a)
                // Against the event's previous time when it has one (an expiry after its start, say, is often a
                // fixed span), else against the column's previous one.
                columns.writeSignedVarint(column: column, t &- (eventTime ?? previousTimes[column]))
                previousTimes[column] = t
                eventTime = t
            case .integer:
                columns.writeSignedVarint(column: column, Int64(bitPattern: v.a))
            }
        }
    }

    /// The index of the first quote or backslash at or after `i`, or `data.count`; eight bytes at a time while none of
    /// them is one (string values are most of the data's bytes).
    private static func quoteOrBackslash(_ data: UnsafeRawBufferPointer, from start: Int) -> Int {
        let n = data.count
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        while i + 8 <= n {
            let w = data.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let q = w ^ (ones &* 0x22)
            let b = w ^ (ones &* 0x5C)
            if ((q &- ones) & ~q | (b &- ones) & ~b) & (ones &* 0x80) != 0 { break }
            i += 8
        }
        while i < n, data[i] != UInt8(ascii: "\""), data[i] != UInt8(ascii: "\\") { i += 1 }
        return min(i, n)
    }

    private static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
            || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    }

    /// The value of `-?(0|[1-9][0-9]{0,17})`, the integers whose decimal text formatting gives back.
    static func canonicalInteger(_ t: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        let negative = t.first == UInt8(ascii: "-")
        if negative { i = 1 }
        let digits = t.count - i
        guard digits >= 1, digits <= 18, !(digits > 1 && t[i] == UInt8(ascii: "0")), !(negative && t[i] == UInt8(ascii: "0")) else { return nil }
        var v: Int64 = 0
        while i < t.count {
            let c = t[i]
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            v = v * 10 + Int64(c - UInt8(ascii: "0"))
            i += 1
        }
        return negative ? -v : v
    }
}
