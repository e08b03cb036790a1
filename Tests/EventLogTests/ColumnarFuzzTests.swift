@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Columnar bytes damaged at random, or built to lie (huge varints, many holes, lengths past the payload, extreme
/// integers and times), decode to an error or to the bytes they spell, never to a trap or a write out of bounds;
/// and the encoder takes any bytes at all.
@Suite struct ColumnarFuzzTests {
    private func varint(_ v: UInt64) -> [UInt8] {
        var w = ByteWriter()
        w.writeVarint(v)
        return w.bytes
    }

    private func zigzag(_ v: Int64) -> [UInt8] {
        var w = ByteWriter()
        w.writeSignedVarint(v)
        return w.bytes
    }

    /// Columnar bytes from a shape table's bytes (`count` shapes) and the columns.
    /// A layout of version 1 (columns in their order), or with `grouped`, of version 2 (columns by group).
    private func layout(shapeCount: Int, shapes: [UInt8], columns: [[UInt8]], grouped: [Int]? = nil) -> [UInt8] {
        [grouped == nil ? 1 : 2] + varint(UInt64(shapeCount)) + shapes + varint(UInt64(columns.count))
            + columns.flatMap { varint(UInt64($0.count)) } + (grouped?.flatMap { columns[$0] } ?? columns.flatMap { $0 })
    }

    /// One data shape, `prefix` hole `suffix`, with a hole of `kind`.
    private func dataShape(_ prefix: String, _ kind: ColumnarPayload.Hole, _ suffix: String) -> [UInt8] {
        [ColumnarPayload.ShapeKind.data.rawValue, 1] + varint(UInt64(prefix.utf8.count)) + Array(prefix.utf8) + [kind.rawValue]
            + varint(UInt64(suffix.utf8.count)) + Array(suffix.utf8)
    }

    private let id = [UInt8](repeating: 0xAB, count: 16)

    /// The fixed columns of one commit of one event (stream "s", version 1, type "T"), its data in shape 1.
    private func oneEventColumns(hole: [UInt8]) -> [[UInt8]] {
        [[0, 1], [1, UInt8(ascii: "s")], [1], [1, UInt8(ascii: "T")], id, [1, 0], [0], hole]
    }

    /// The row payload of that event with `data`.
    private func oneEventRow(data: [UInt8]) -> [UInt8] {
        [0, 1, 1, UInt8(ascii: "s"), 1, 1, UInt8(ascii: "T")] + id + [0] + varint(UInt64(data.count)) + data
    }

    private func decode(_ columnar: [UInt8], commits: Int, rawLength: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        try columnar.withUnsafeBytes { try ColumnarPayload.decode($0, commitCount: commits, rawLength: rawLength, into: &out) }
        #expect(out.count >= rawLength)
        return Array(out[..<rawLength])
    }

    @Test func `values spelled by hand decode to their text, at the extremes of their types`() throws {
        for (value, text) in [(Int64.min, "-9223372036854775808"), (Int64.max, "9223372036854775807"), (0, "0"), (-1, "-1")] {
            let columnar = layout(shapeCount: 1, shapes: dataShape("[", .integer, "]"), columns: oneEventColumns(hole: zigzag(value)))
            let row = oneEventRow(data: Array("[\(text)]".utf8))
            #expect(try decode(columnar, commits: 1, rawLength: row.count) == row)
        }
        // Version 2 stores the same columns by group: text (streams, types, kept whole, text holes), binary (commit
        // headers, versions, shape ids, times, integers), random (event ids, UUIDs).
        for (value, text) in [(Int64(7), "7"), (-300, "-300")] {
            let columns = oneEventColumns(hole: zigzag(value))
            let grouped = layout(shapeCount: 1, shapes: dataShape("[", .integer, "]"), columns: columns, grouped: [1, 3, 6, 0, 2, 5, 7, 4])
            let row = oneEventRow(data: Array("[\(text)]".utf8))
            #expect(try decode(grouped, commits: 1, rawLength: row.count) == row)
            // The same bytes read as version 1 put the columns in the wrong places.
            var wrong = grouped
            wrong[0] = 1
            #expect(throws: ByteReaderError.self) { try decode(wrong, commits: 1, rawLength: row.count) }
        }
        let time = layout(shapeCount: 1, shapes: dataShape("\"", .time, "\""), columns: oneEventColumns(hole: zigzag(0)))
        let row = oneEventRow(data: Array("\"1970-01-01T00:00:00.000000Z\"".utf8))
        #expect(try decode(time, commits: 1, rawLength: row.count) == row)
        for micros in [Int64.min, Int64.max, Int64.min + 1, -62_167_219_200_000_001, 253_402_300_800_000_000] {
            let columnar = layout(shapeCount: 1, shapes: dataShape("\"", .time, "\""), columns: oneEventColumns(hole: zigzag(micros)))
            #expect(throws: ByteReaderError.self) { try decode(columnar, commits: 1, rawLength: row.count) }
        }
        // Data whose length takes three bytes of varint, and one byte: the data is moved either way.
        for size in [20_000, 5, 127, 128, 16_383, 16_384] {
            let text = [UInt8](repeating: UInt8(ascii: "x"), count: size)
            let columnar = layout(shapeCount: 1, shapes: dataShape("\"", .text, "\""), columns: oneEventColumns(hole: varint(UInt64(size)) + text))
            let row = oneEventRow(data: [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")])
            #expect(try decode(columnar, commits: 1, rawLength: row.count) == row)
            for wrong in [row.count - 2, row.count - 1, row.count + 1, 0] {
                #expect(throws: ByteReaderError.self) { try decode(columnar, commits: 1, rawLength: wrong) }
            }
        }
    }

    @Test func `hostile columnar bytes fail with an error`() throws {
        let huge = varint(UInt64.max)
        let hole = zigzag(5)
        var cases: [[UInt8]] = []
        // Counts that do not fit.
        cases.append([ColumnarPayload.formatVersion] + huge)
        cases.append([ColumnarPayload.formatVersion, 0] + huge)
        cases.append([ColumnarPayload.formatVersion, 1, 0] + huge)
        cases.append([ColumnarPayload.formatVersion] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        // The most shapes, each with the most holes, every column empty.
        let holes = [UInt8]((0..<ColumnarPayload.maxHolesPerShape).flatMap { _ in [0, ColumnarPayload.Hole.integer.rawValue] })
        let wide: [UInt8] = [ColumnarPayload.ShapeKind.data.rawValue, UInt8(ColumnarPayload.maxHolesPerShape)] + holes + [0]
        let many = [UInt8]((0..<ColumnarPayload.maxShapes).flatMap { _ in wide })
        let manyColumns = [[UInt8]](repeating: [], count: ColumnarPayload.fixedColumns + ColumnarPayload.maxShapes * ColumnarPayload.maxHolesPerShape)
        let allShapes = layout(shapeCount: ColumnarPayload.maxShapes, shapes: many, columns: manyColumns)
        // No commits: nothing to write, and every column read to its end.
        #expect(try decode(allShapes, commits: 0, rawLength: 0) == [])
        cases.append(allShapes)
        var oneEach = manyColumns
        oneEach.replaceSubrange(0..<8, with: oneEventColumns(hole: hole))
        oneEach[5] = varint(UInt64(ColumnarPayload.maxShapes)) + [0]
        cases.append(layout(shapeCount: ColumnarPayload.maxShapes, shapes: many, columns: oneEach))
        // Too many shapes or holes, or a hole kind metadata does not have.
        cases.append(layout(shapeCount: ColumnarPayload.maxShapes + 1, shapes: many, columns: manyColumns))
        cases.append([ColumnarPayload.formatVersion, 1, 0] + varint(UInt64(ColumnarPayload.maxHolesPerShape + 1)))
        cases.append(layout(shapeCount: 1, shapes: [ColumnarPayload.ShapeKind.metadata.rawValue, 1, 0, ColumnarPayload.Hole.time.rawValue, 0], columns: oneEventColumns(hole: hole)))
        cases.append(layout(shapeCount: 1, shapes: [ColumnarPayload.ShapeKind.data.rawValue, 1, 0, 9, 0], columns: oneEventColumns(hole: hole)))
        // Column lengths past the payload, or summing past it.
        cases.append([ColumnarPayload.formatVersion, 0, 7] + huge)
        cases.append([ColumnarPayload.formatVersion, 0, 7] + [UInt8](repeating: 0x7F, count: 7) + [UInt8](repeating: 0, count: 200))
        cases.append([ColumnarPayload.formatVersion, 0, 7] + varint(UInt64(Int.max)) + [UInt8](repeating: 0, count: 6))
        // Fixed columns that lie: event counts, lengths, shape ids, metadata pair counts.
        var columns = oneEventColumns(hole: hole)
        for (column, bytes) in [(0, [0] + huge), (0, [0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), (1, huge + [1]), (1, varint(UInt64(Int.max)) + [1]),
            (3, huge), (5, huge + [0]), (5, [1] + huge), (5, [2, 0]), (5, [0, 1]), (6, huge), (6, varint(UInt64(Int.max))), (6, [1] + huge), (7, huge)] as [(Int, [UInt8])]
        {
            columns = oneEventColumns(hole: hole)
            columns[column] = bytes
            cases.append(layout(shapeCount: 1, shapes: dataShape("[", .integer, "]"), columns: columns))
        }
        // A text value whose length does not fit, or runs past its column.
        for bad in [huge, varint(UInt64(Int.max)), varint(UInt64(Int.max) + 1), varint(3) + [1]] {
            cases.append(layout(shapeCount: 1, shapes: dataShape("[", .text, "]"), columns: oneEventColumns(hole: bad)))
        }
        // A UUID cut short.
        cases.append(layout(shapeCount: 1, shapes: dataShape("\"", .uuid, "\""), columns: oneEventColumns(hole: [1, 2, 3])))
        for bytes in cases {
            for commits in [1, 2, Int(UInt32.max)] {
                for rawLength in [0, 1, 50, 40_000] {
                    #expect(throws: ByteReaderError.self) { try decode(bytes, commits: commits, rawLength: rawLength) }
                }
            }
        }
    }

    @Test func `valid columnar bytes damaged many times over fail with an error or decode within their length`() throws {
        var commits: [[AppendPlanner.PlannedEvent]] = []
        var version: UInt64 = 0
        for (i, text) in ColumnarPayloadTests.tricky.enumerated() {
            version += 1
            let metadata: EventMetadata = i % 2 == 0 ? ["correlationId": UUID().uuidString.lowercased(), "actor": "user-\(i)"] : [:]
            commits.append([.init(stream: stream("s-\(i % 3)"), version: version, event: ProposedEvent(id: UUID(), type: "T\(i % 4)", data: Array(text.utf8), metadata: metadata))])
        }
        let rows = commits.flatMap { CommitCodec.encodeCommit($0) }
        let columnar = try #require(rows.withUnsafeBytes { ColumnarPayload.encode($0, commitCount: commits.count) })
        #expect(try decode(columnar, commits: commits.count, rawLength: rows.count) == rows)
        var rng = SystemRandomNumberGenerator()
        let interesting: [[UInt8]] = [[0xFF], [0x80], [0x00], [0x7F], varint(UInt64.max), varint(UInt64(Int.max)), zigzag(Int64.min), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]]
        for _ in 0..<10_000 {
            var damaged = columnar
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                guard !damaged.isEmpty else { break }
                let at = Int.random(in: 0..<damaged.count, using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: damaged[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1: damaged[at] = UInt8.random(in: 0...255, using: &rng)
                case 2: damaged.replaceSubrange(at..<min(damaged.count, at + Int.random(in: 1...4, using: &rng)), with: interesting.randomElement(using: &rng)!)
                case 3: damaged.insert(contentsOf: interesting.randomElement(using: &rng)!, at: at)
                case 4: damaged.removeSubrange(at..<min(damaged.count, at + Int.random(in: 1...16, using: &rng)))
                default: damaged.removeLast(Int.random(in: 1...min(64, damaged.count), using: &rng))
                }
            }
            let commitCount = Bool.random(using: &rng) ? commits.count : Int.random(in: 0...(commits.count * 2), using: &rng)
            let rawLength = Bool.random(using: &rng) ? rows.count : Int.random(in: 0...(rows.count * 2), using: &rng)
            _ = try? decode(damaged, commits: commitCount, rawLength: rawLength)
        }
    }

    @Test func `the encoder lays out damaged rows, or declines them, and never traps`() {
        var commits: [[AppendPlanner.PlannedEvent]] = []
        var version: UInt64 = 0
        for (i, text) in ColumnarPayloadTests.tricky.enumerated() {
            version += 1
            let metadata: EventMetadata = i % 2 == 0 ? ["correlationId": UUID().uuidString.lowercased()] : [:]
            commits.append([.init(stream: stream("s"), version: version, event: ProposedEvent(id: UUID(), type: "T", data: Array(text.utf8), metadata: metadata))])
        }
        let rows = commits.flatMap { CommitCodec.encodeCommit($0) }
        var rng = SystemRandomNumberGenerator()
        for round in 0..<5_000 {
            var damaged = round % 4 == 0 ? (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) } : rows
            for _ in 0..<Int.random(in: 0...6, using: &rng) where !damaged.isEmpty {
                let at = Int.random(in: 0..<damaged.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: damaged[at] = [0xFF, 0x80, 0x00, 0x7F, UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "-")].randomElement(using: &rng)!
                case 1: damaged[at] = UInt8.random(in: 0...255, using: &rng)
                default: damaged.removeLast(Int.random(in: 1...min(16, damaged.count), using: &rng))
                }
            }
            let commitCount = Bool.random(using: &rng) ? commits.count : Int.random(in: 0...(commits.count * 2), using: &rng)
            guard let columnar = damaged.withUnsafeBytes({ ColumnarPayload.encode($0, commitCount: commitCount) }) else { continue }
            #expect((try? decode(columnar, commits: commitCount, rawLength: damaged.count)) == damaged)
        }
    }
}
