@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// The columnar layout of compacted blocks gives back every payload byte for byte, whatever the data holds, and
/// damaged columnar bytes fail with an error, never a trap.
@Suite struct ColumnarPayloadTests {
    /// A row payload of one commit per event list.
    private func payload(_ commits: [[(String, String, [UInt8], EventMetadata)]]) -> [UInt8] {
        var bytes: [UInt8] = []
        var version: UInt64 = 0
        for commit in commits {
            bytes += CommitCodec.encodeCommit(commit.map { s, type, data, metadata in
                version += 1
                return AppendPlanner.PlannedEvent(
                    stream: stream(s), version: version, event: ProposedEvent(id: UUID(), type: type, data: data, metadata: metadata))
            })
        }
        return bytes
    }

    private func roundTrip(_ rows: [UInt8], commits: Int) throws -> [UInt8]? {
        guard let columnar = rows.withUnsafeBytes({ ColumnarPayload.encode($0, commitCount: commits) }) else { return nil }
        var back: [UInt8] = [7, 7, 7]
        try columnar.withUnsafeBytes { try ColumnarPayload.decode($0, commitCount: commits, rawLength: rows.count, into: &back) }
        #expect(Array(back[..<rows.count]) == rows)
        return columnar
    }

    static let tricky: [String] = [
        #"{"a":1}"#, "{}", "[]", "", "null", "true", #""just a string""#, "42", "-7", "0",
        #"{ "spaced" : "value" , "n" : 12 }"#, "{\n\t\"tabs\":\n\"x\"\r\n}",
        #"{"esc":"quote \" and backslash \\ and \\\" end","u":"\u00e9\ud83d\ude00"}"#,
        #"{"unicode":"Ærøskøbing 🐾 猫","key with \"quote\"":"v"}"#,
        #"{"ints":[0,-0,00,007,-12,1234567890123456789,123456789012345678,-999999999999999999,9223372036854775807,-9223372036854775808]}"#,
        #"{"floats":[1.5,-0.25,1e10,1E-5,2.0e+3,-1.,.5,1e,--1,1-2]}"#,
        #"{"id":"38527901-31a5-4dc5-b2dd-655a855421b8","upper":"38527901-31A5-4DC5-B2DD-655A855421B8","short":"38527901-31a5-4dc5-b2dd-655a855421b","nohyphen":"3852790131a54dc5b2dd655a855421b8ab12"}"#,
        #"{"t":"2026-06-01T00:00:03.175412Z","leap":"2024-02-29T23:59:59.999999Z","notleap":"2023-02-29T00:00:00.000000Z","h24":"2026-06-01T24:00:00.000000Z","s60":"2026-06-01T00:00:60.000000Z","y0":"0000-01-01T00:00:00.000000Z","y9999":"9999-12-31T23:59:59.999999Z","ms":"2026-06-01T00:00:03.175Z","offset":"2026-06-01T00:00:03.175412+00:00","before1970":"1969-12-31T23:59:59.999999Z"}"#,
        #"{"nested":{"deep":{"deeper":[{"x":"2026-06-01T00:00:03.175412Z"},{"y":[1,2,[3,"a"]]}]}}}"#,
        #"{"unterminated":"abc"#, #"{"escape at end":"abc\"#, #""key":"#, "\"\":\"\"", ":::\"\"\"", "-", "--", "1.2.3", "\u{0}\u{1}\u{7f}",
        "not json at all, 123 and \"quoted\" bits: 2026-06-01T00:00:03.175412Z",
    ]

    @Test func `every kind of data and metadata comes back byte for byte`() throws {
        var commits: [[(String, String, [UInt8], EventMetadata)]] = []
        let metadatas: [EventMetadata] = [
            [:], ["actor": "user-1"], ["correlationId": "0261cfe6-e5d9-4899-bbda-9f28dacc8039", "actor": "user-4478"],
            ["correlationId": "0261CFE6-E5D9-4899-BBDA-9F28DACC8039"], ["causationId": "", "x": "🐾"],
        ]
        for (i, text) in Self.tricky.enumerated() {
            commits.append([("stream-\(i % 3)", "Type\(i % 4)", Array(text.utf8), metadatas[i % metadatas.count])])
        }
        // The same shapes again, several events a commit, so columns hold more than one value.
        commits.append(Self.tricky.enumerated().map { i, text in ("s-\(i)", "T", Array(text.utf8), metadatas[(i + 1) % metadatas.count]) })
        let rows = payload(commits)
        #expect(try roundTrip(rows, commits: commits.count) != nil)
    }

    @Test func `data that is not text at all comes back byte for byte`() throws {
        var rng = SystemRandomNumberGenerator()
        var laidOut = 0
        for round in 0..<200 {
            let events = (0..<Int.random(in: 1...20, using: &rng)).map { _ in
                let data = (0..<Int.random(in: 0...300, using: &rng)).map { _ in
                    // Biased towards the bytes the splitter looks at.
                    Bool.random(using: &rng) ? Array("\"\\:-0123456789.eE{}[], ".utf8).randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
                return ("r-\(round)", "Random", data, EventMetadata())
            }
            let rows = payload([events])
            if try roundTrip(rows, commits: 1) != nil { laidOut += 1 }
        }
        #expect(laidOut > 100)
    }

    @Test func `an event with more places than a shape holds, and more shapes than a block holds, are kept whole`() throws {
        let wide = "[" + (0..<200).map { "\($0)" }.joined(separator: ",") + "]"
        var events = [("w", "Wide", Array(wide.utf8), EventMetadata())]
        for i in 0..<(ColumnarPayload.maxShapes + 50) {
            events.append(("k", "Keys", Array("{\"key\(i)\":\(i)}".utf8), EventMetadata()))
        }
        let rows = payload([events])
        let columnar = try #require(try roundTrip(rows, commits: 1))
        let shapes = try columnar.withUnsafeBytes { raw throws(ByteReaderError) -> UInt64 in
            var r = ByteReader(raw)
            _ = try r.read(UInt8.self)
            return try r.readVarint()
        }
        #expect(shapes == UInt64(ColumnarPayload.maxShapes))
    }

    @Test func `metadata with more pairs than a shape holds is kept whole, and its block still laid out by columns`() throws {
        let wide = EventMetadata(Dictionary(uniqueKeysWithValues: (0...ColumnarPayload.maxHolesPerShape).map { ("key\($0)", "value\($0)") }))
        let events = [("s", "T", Array(#"{"a":1}"#.utf8), wide), ("s", "T", Array(#"{"a":2}"#.utf8), ["actor": "user-1"])]
        let rows = payload([events])
        #expect(try roundTrip(rows, commits: 1) != nil)
    }

    @Test func `lowercase UUIDs and canonical times are stored as binary`() throws {
        let events = (0..<500).map { i in
            let json = #"{"id":"\#(UUID().uuidString.lowercased())","at":"2026-06-01T00:00:\#(String(format: "%02d", i % 60)).\#(String(format: "%06d", i))Z"}"#
            return ("s", "T", Array(json.utf8), EventMetadata())
        }
        let rows = payload([events])
        let columnar = try #require(try roundTrip(rows, commits: 1))
        // Each event's row holds 36 + 27 bytes of that text; as binary it is 16 bytes and a few of varint.
        #expect(rows.count - columnar.count > 500 * 40)
    }

    @Test func `canonical times format back to the same text, across the years`() {
        var rng = SystemRandomNumberGenerator()
        let lowest: Int64 = -62_167_219_200_000_000  // 0000-01-01T00:00:00Z
        let highest: Int64 = 253_402_300_799_999_999  // 9999-12-31T23:59:59.999999Z
        var text = [UInt8](repeating: 0, count: CanonicalText.timeLength)
        for value in [lowest, highest, 0, -1, 1, 951_782_400_000_000] + (0..<20_000).map({ _ in Int64.random(in: lowest...highest, using: &rng) }) {
            let written = text.withUnsafeMutableBytes { CanonicalText.writeTime(value, to: $0.baseAddress!) }
            #expect(written)
            #expect(text.withUnsafeBytes { CanonicalText.time($0) } == value)
        }
        #expect(text.withUnsafeMutableBytes { CanonicalText.writeTime(lowest - 1, to: $0.baseAddress!) } == false)
        #expect(text.withUnsafeMutableBytes { CanonicalText.writeTime(highest + 1, to: $0.baseAddress!) } == false)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: "2024-02-29T13:14:15.123Z")!
        let micros = Int64((date.timeIntervalSince1970 * 1000).rounded()) * 1000
        #expect(Array("2024-02-29T13:14:15.123000Z".utf8).withUnsafeBytes { CanonicalText.time($0) } == micros)
    }

    @Test func `UUID text formats back to the same text`() {
        var text = [UInt8](repeating: 0, count: CanonicalText.uuidLength)
        for _ in 0..<2_000 {
            let id = UUID().uuidString.lowercased()
            let value = Array(id.utf8).withUnsafeBytes { CanonicalText.uuid($0) }
            let parsed = try! #require(value)
            text.withUnsafeMutableBytes { CanonicalText.writeUUID(parsed, to: $0.baseAddress!) }
            #expect(String(decoding: text, as: UTF8.self) == id)
        }
        #expect(Array(UUID().uuidString.utf8).withUnsafeBytes { CanonicalText.uuid($0) } == nil)
        // Every place, every byte next to a hex digit's range: none is taken for a digit.
        let valid = Array("01234567-89ab-cdef-0123-456789abcdef".utf8)
        #expect(valid.withUnsafeBytes { CanonicalText.uuid($0) } != nil)
        for i in valid.indices {
            for bad in Array("/:@`gAFG- ".utf8) + [0, 0x80, 0xFF, 0x3A + 0x40, 0x70] where bad != valid[i] {
                var text = valid
                text[i] = bad
                #expect(text.withUnsafeBytes { CanonicalText.uuid($0) } == nil, "\(String(decoding: text, as: UTF8.self))")
            }
        }
    }

    @Test func `damaged columnar bytes fail with an error and never trap`() throws {
        let rows = payload([
            Self.tricky.enumerated().map { i, text in ("s-\(i % 4)", "T\(i % 3)", Array(text.utf8), ["correlationId": UUID().uuidString.lowercased()]) },
            [("a", "B", Array(#"{"x":"2026-06-01T00:00:03.175412Z","n":5}"#.utf8), [:])],
        ])
        let columnar = try #require(rows.withUnsafeBytes { ColumnarPayload.encode($0, commitCount: 2) })
        var rng = SystemRandomNumberGenerator()
        var failures = 0
        for round in 0..<3_000 {
            var damaged = columnar
            switch round % 3 {
            case 0: damaged[Int.random(in: 0..<damaged.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            default: damaged.removeLast(Int.random(in: 1...min(64, damaged.count), using: &rng))
            }
            var back: [UInt8] = []
            do {
                try damaged.withUnsafeBytes { try ColumnarPayload.decode($0, commitCount: 2, rawLength: rows.count, into: &back) }
                #expect(back.count >= rows.count)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    @Test func `the layout measurement finds the random event ids incompressible and the JSON smaller by columns`() throws {
        let events = (0..<3_000).map { i in
            (stream: stream("pet-\(i % 50)"), version: UInt64(i / 50), event: ProposedEvent(
                id: UUID(), type: "Weighed",
                data: Array(#"{"petId":"pet-\#(i % 50)","grams":\#(1000 + i % 700),"at":"2026-06-01T00:\#(String(format: "%02d", i / 60 % 60)):\#(String(format: "%02d", i % 60)).000000Z"}"#.utf8)))
        }
        let m = try ColumnarLayoutMeasurement.measure(events, commitSize: 100, blockSize: 64 << 10)
        #expect(m.events == 3_000 && m.blocks > 1)
        let ids = try #require(m.columnBytesPerEvent.first { $0.kind == "event ids" })
        #expect(ids.bytes == 16)
        #expect(m.columnarBytesPerEvent < m.rowBytesPerEvent)
    }

    @Test func `a small block is stored whichever way is smaller`() throws {
        let compressor = ZstdCompressor()
        for count in [1, 2, 5, 50, 200] {
            let rows = payload([(0..<count).map { i in
                ("pet-\(i % 3)", "Weighed", Array(#"{"id":"\#(UUID().uuidString.lowercased())","grams":\#(1000 + i)}"#.utf8),
                 ["correlationId": UUID().uuidString.lowercased()])
            }])
            let chosen = try rows.withUnsafeBytes { try FrameIO.store($0, compressor: compressor, level: 6, dictionary: nil, columnarCommits: 1) }
            let asRows = try rows.withUnsafeBytes { try FrameIO.store($0, compressor: compressor, level: 6, dictionary: nil) }
            // Stored by columns: the parts' directory, then each group, compressed or as it is.
            let storedByColumns = try #require(try rows.withUnsafeBytes {
                try ColumnarParts.store($0, commitCount: 1, parts: 1, compressor: compressor, helper: nil, level: 6)
            }).count
            #expect(chosen.bytes.count == min(asRows.bytes.count, storedByColumns), "\(count) events")
            #expect((chosen.codec == .columnarParts) == (storedByColumns < asRows.bytes.count), "\(count) events: \(chosen.codec)")
        }
    }
}
