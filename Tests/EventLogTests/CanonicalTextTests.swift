@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// The canonical texts a columnar block stores as binary agree with plain reference formatters on many random
/// values (negative epochs, midnights, the edges of the years 0000 and 9999), refuse every text that is not their
/// exact spelling, and a block's times come back through the decoder's day cache whatever order their days come in.
@Suite struct CanonicalTextTests {
    // MARK: - References, written the long way

    private static func isLeap(_ y: Int64) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` by counting whole 400-year cycles, then years and months one at a time.
    static func referenceText(_ micros: Int64) -> String? {
        let perDay: Int64 = 86_400_000_000
        var days = micros / perDay
        var rest = micros % perDay
        if rest < 0 {
            rest += perDay
            days -= 1
        }
        var year: Int64 = 1970
        // 400 Gregorian years are exactly 146,097 days, whatever year they start on.
        let cycles = days >= 0 ? days / 146_097 : -((-days + 146_096) / 146_097)
        year += cycles * 400
        days -= cycles * 146_097
        while days >= (isLeap(year) ? 366 : 365) {
            days -= isLeap(year) ? 366 : 365
            year += 1
        }
        guard (0...9999).contains(year) else { return nil }
        let lengths: [Int64] = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var month = 0
        while days >= lengths[month] {
            days -= lengths[month]
            month += 1
        }
        let seconds = rest / 1_000_000
        return "\(pad(year, 4))-\(pad(Int64(month + 1), 2))-\(pad(days + 1, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(rest % 1_000_000, 6))Z"
    }

    private static func isLowercaseHex(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x61...0x66).contains(c) }

    /// The value of 8 lowercase hex digits read one at a time, or `nil`.
    private static func referenceUnhex(_ bytes: [UInt8]) -> UInt32? {
        var v: UInt32 = 0
        for c in bytes {
            guard isLowercaseHex(c) else { return nil }
            v = v << 4 | UInt32(c <= 0x39 ? c - 0x30 : c - 0x61 + 10)
        }
        return v
    }

    private static func isCanonicalUUID(_ text: [UInt8]) -> Bool {
        text.count == 36 && text.indices.allSatisfy { [8, 13, 18, 23].contains($0) ? text[$0] == UInt8(ascii: "-") : isLowercaseHex(text[$0]) }
    }

    /// The UUID's 16 bytes, most significant first, as two words.
    private static func uuidHalves(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    private func write(_ micros: Int64) -> String? {
        var text = [UInt8](repeating: 0, count: CanonicalText.timeLength)
        let written = text.withUnsafeMutableBytes { CanonicalText.writeTime(micros, to: $0.baseAddress!) }
        return written ? String(decoding: text, as: UTF8.self) : nil
    }

    private func parse(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBytes { CanonicalText.time($0) } }

    static let lowest: Int64 = -62_167_219_200_000_000  // 0000-01-01T00:00:00.000000Z
    static let highest: Int64 = 253_402_300_799_999_999  // 9999-12-31T23:59:59.999999Z

    /// Random instants: over all the years, near 1970 (both signs), and at or next to a midnight.
    private static func randomTimes(_ count: Int) -> [Int64] {
        var rng = SystemRandomNumberGenerator()
        let perDay: Int64 = 86_400_000_000
        return (0..<count).map { i in
            switch i % 4 {
            case 0: return Int64.random(in: lowest...highest, using: &rng)
            case 1: return Int64.random(in: -1_000 * perDay...1_000 * perDay, using: &rng)
            case 2: return Int64.random(in: (lowest / perDay)...(highest / perDay), using: &rng) * perDay + Int64.random(in: -1...1, using: &rng)
            default: return Int64.random(in: -3_000_000_000...3_000_000_000, using: &rng)
            }
        }
    }

    // MARK: - UUIDs

    @Test func `eight hex digits parse eight at a time exactly as one at a time, and nothing else parses`() {
        var rng = SystemRandomNumberGenerator()
        // Biased to the digits and the bytes next to their ranges, and to bytes with bit 6 or bit 7 set.
        let near = Array("0123456789abcdef/:@`gAFG ".utf8) + [0, 0x7F, 0x80, 0xB0, 0xE1, 0xFF, 0x10, 0x20, 0x3A + 0x40, 0x70, 0x66 + 0x80]
        for round in 0..<200_000 {
            let bytes: [UInt8] = (0..<8).map { _ in
                switch round % 3 {
                case 0: return Array("0123456789abcdef".utf8).randomElement(using: &rng)!
                case 1: return Bool.random(using: &rng) ? Array("0123456789abcdef".utf8).randomElement(using: &rng)! : near.randomElement(using: &rng)!
                default: return UInt8.random(in: 0...255, using: &rng)
                }
            }
            let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            #expect(CanonicalText.unhex(word) == Self.referenceUnhex(bytes), "\(bytes)")
        }
        for value in [UInt32.min, .max, 0x0A0A_0A0A, 0xA0A0_A0A0, 0x1234_5678, 0x9ABC_DEF0] + (0..<10_000).map({ _ in UInt32.random(in: .min ... .max, using: &rng) }) {
            let text = Array(String(value, radix: 16).leftPadded(8).utf8)
            let word = text.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            #expect(CanonicalText.hex(value) == word)
            #expect(CanonicalText.unhex(word) == value)
        }
    }

    @Test func `a UUID's text parses to Foundation's bytes and formats back, and a damaged one is refused`() {
        var rng = SystemRandomNumberGenerator()
        var out = [UInt8](repeating: 0, count: CanonicalText.uuidLength)
        for round in 0..<20_000 {
            let halves: (UInt64, UInt64) = switch round % 4 {
            case 0: (0, 0)
            case 1: (.max, .max)
            default: (UInt64.random(in: .min ... .max, using: &rng), UInt64.random(in: .min ... .max, using: &rng))
            }
            var raw = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: halves.0.bigEndian) { raw.replaceSubrange(0..<8, with: $0) }
            withUnsafeBytes(of: halves.1.bigEndian) { raw.replaceSubrange(8..<16, with: $0) }
            let id = raw.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
            let text = Array(id.uuidString.lowercased().utf8)
            let parsed = text.withUnsafeBytes { CanonicalText.uuid($0) }
            #expect(parsed.map { [$0.0, $0.1] } == [halves.0, halves.1])
            #expect(parsed.map { [$0.0, $0.1] } == [Self.uuidHalves(id).0, Self.uuidHalves(id).1])
            out.withUnsafeMutableBytes { CanonicalText.writeUUID(halves, to: $0.baseAddress!) }
            #expect(out == text)

            var damaged = text
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                damaged[Int.random(in: 0..<36, using: &rng)] = Bool.random(using: &rng)
                    ? UInt8.random(in: 0...255, using: &rng) : Array("0123456789abcdefABCDEF-gG/:`@".utf8).randomElement(using: &rng)!
            }
            let again = damaged.withUnsafeBytes { CanonicalText.uuid($0) }
            if Self.isCanonicalUUID(damaged) {
                let reference = UUID(uuidString: String(decoding: damaged, as: UTF8.self)).map(Self.uuidHalves)
                #expect(again.map { [$0.0, $0.1] } == reference.map { [$0.0, $0.1] })
            } else {
                #expect(again == nil, "\(String(decoding: damaged, as: UTF8.self))")
            }
        }
    }

    // MARK: - Times

    @Test func `a time's text is what a plain formatter writes, for random instants of every year and both signs`() {
        let edges: [Int64] = [Self.lowest, Self.highest, 0, -1, 1, -86_400_000_000, 86_400_000_000 - 1, -86_400_000_000 - 1,
                              951_782_400_000_000, -2_208_988_800_000_000, 946_684_800_000_000 - 1]
        for micros in edges + Self.randomTimes(40_000) {
            let reference = Self.referenceText(micros)
            #expect(write(micros) == reference, "\(micros)")
            guard let reference else { continue }
            #expect(parse(reference) == micros, "\(reference)")
            #expect(Timestamp(microsecondsSinceEpoch: micros).iso8601 == reference)
        }
        for micros in [Self.lowest - 1, Self.highest + 1, Int64.min, Int64.max, Int64.min + 1] {
            #expect(write(micros) == nil)
            #expect(Self.referenceText(micros) == nil)
        }
    }

    @Test func `a time's text agrees with Foundation's ISO 8601 formatter on whole seconds from 1600 to 9999`() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        var rng = SystemRandomNumberGenerator()
        let from: Int64 = -11_676_096_000  // 1600-01-01T00:00:00Z
        let to: Int64 = 253_402_300_799
        for i in 0..<5_000 {
            let seconds = i % 2 == 0 ? Int64.random(in: from...to, using: &rng) : Int64.random(in: -100_000_000...100_000_000, using: &rng)
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let text = write(seconds * 1_000_000)
            #expect(text.map { String($0.prefix(19)) + "Z" } == expected)
            #expect(text?.dropFirst(19) == ".000000Z")
        }
    }

    @Test func `a damaged time's text is refused unless it is another canonical time`() {
        var rng = SystemRandomNumberGenerator()
        let bytes = Array("0123456789-:TZ.tz +/".utf8)
        for micros in Self.randomTimes(40_000) {
            guard let text = Self.referenceText(micros) else { continue }
            var damaged = Array(text.utf8)
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                damaged[Int.random(in: 0..<damaged.count, using: &rng)] = Bool.random(using: &rng)
                    ? bytes.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            if let value = damaged.withUnsafeBytes({ CanonicalText.time($0) }) {
                #expect(Self.referenceText(value).map { Array($0.utf8) } == damaged, "\(String(decoding: damaged, as: UTF8.self))")
            }
        }
        for text in ["2026-06-01T24:00:00.000000Z", "2026-06-01T00:60:00.000000Z", "2026-06-01T00:00:60.000000Z",
                     "2026-02-29T00:00:00.000000Z", "2100-02-29T00:00:00.000000Z", "2026-13-01T00:00:00.000000Z",
                     "2026-00-01T00:00:00.000000Z", "2026-06-00T00:00:00.000000Z", "2026-04-31T00:00:00.000000Z",
                     "2026-06-01t00:00:00.000000Z", "2026-06-01T00:00:00.000000z", "+026-06-01T00:00:00.000000Z",
                     "-026-06-01T00:00:00.000000Z", "2026-06-01T00:00:00.00000-Z", "2026-06-01T00:00:00.000000Z "] {
            #expect(parse(text) == nil, "\(text)")
        }
        #expect(parse("2000-02-29T00:00:00.000000Z") == 951_782_400_000_000)
        #expect(parse("1969-12-31T23:59:59.999999Z") == -1)
    }

    // MARK: - Times through a block

    /// A row payload of one commit, each event's data the given JSON.
    private func payload(_ datas: [String], metadata: (Int) -> EventMetadata = { _ in [:] }) -> [UInt8] {
        CommitCodec.encodeCommit(datas.enumerated().map { i, json in
            AppendPlanner.PlannedEvent(
                stream: stream("s-\(i % 3)"), version: UInt64(i + 1),
                event: ProposedEvent(id: UUID(), type: "T", data: Array(json.utf8), metadata: metadata(i)))
        })
    }

    /// The payload's columnar layout (which the encoder keeps only if it decodes back to the rows) decoded back.
    private func laidOutAndBack(_ rows: [UInt8]) throws -> (columnar: [UInt8], back: [UInt8])? {
        guard let columnar = rows.withUnsafeBytes({ ColumnarPayload.encode($0, commitCount: 1) }) else { return nil }
        var back: [UInt8] = [1, 2, 3]
        try columnar.withUnsafeBytes { try ColumnarPayload.decode($0, commitCount: 1, rawLength: rows.count, into: &back) }
        return (columnar, Array(back[..<rows.count]))
    }

    private func timeColumnBytes(_ columnar: [UInt8]) throws -> Int {
        try columnar.withUnsafeBytes { try ColumnarDecoder($0).columns() }.filter { $0.0 == "times" }.reduce(0) { $0 + $1.1.count }
    }

    @Test func `a block's times come back whatever order their days come in, before 1970 and at midnight`() throws {
        let perDay: Int64 = 86_400_000_000
        let days: [Int64] = [-719_528, -1, 0, 1, 20_000, -20_000, 2_932_896]  // 0000-01-01 ... 9999-12-31
        let offsets: [Int64] = [0, 1, perDay - 1, perDay / 2]
        var rng = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var times: [Int64] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                // Often the day just used (the cache), the day before or after, or a day back and forth.
                let day = round % 2 == 0
                    ? days.randomElement(using: &rng)!
                    : [days[2], days[1], days[2], days[3]].randomElement(using: &rng)! + Int64.random(in: -1...1, using: &rng)
                let offset = Bool.random(using: &rng) ? offsets.randomElement(using: &rng)! : Int64.random(in: 0..<perDay, using: &rng)
                times.append(min(Self.highest, max(Self.lowest, day * perDay + offset)))
            }
            var datas: [String] = []
            var i = 0
            while i < times.count {
                // Events of one, two and three times, so a time follows both the event's and the column's previous.
                let n = min(times.count - i, 1 + (i + round) % 3)
                let fields = (0..<n).map { #""t\#($0)":"\#(Self.referenceText(times[i + $0])!)""# }
                datas.append("{" + fields.joined(separator: ",") + "}")
                i += n
            }
            let rows = payload(datas)
            let result = try #require(try laidOutAndBack(rows), "\(datas)")
            #expect(result.back == rows)
            #expect(try timeColumnBytes(result.columnar) > 0)
        }
    }

    @Test func `events kept whole and metadata between two data shapes leave the times of each shape in step`() throws {
        let wide = "[" + (0...ColumnarPayload.maxHolesPerShape).map { #""2026-06-0\#($0 % 9 + 1)T00:00:00.00000\#($0 % 10)Z""# }.joined(separator: ",") + "]"
        let datas = [
            #"{"start":"2026-06-01T10:00:00.000000Z","end":"2026-06-01T11:00:00.000000Z"}"#,
            wide,
            #"{"at":"1969-12-31T23:59:59.999999Z","id":"38527901-31a5-4dc5-b2dd-655a855421b8"}"#,
            #"{"start":"2026-06-02T00:00:00.000000Z","end":"2026-06-01T23:59:59.999999Z"}"#,
            wide,
            "not json",
            #"{"at":"1970-01-01T00:00:00.000000Z","id":"00000000-0000-0000-0000-000000000000"}"#,
            #"{"start":"0000-01-01T00:00:00.000000Z","end":"9999-12-31T23:59:59.999999Z"}"#,
            #"{"n":1,"at":"2026-06-01T10:00:00.000000Z","m":"2026-06-01T10:00:00.000000Z"}"#,
        ]
        let rows = payload(datas) { i in
            i % 2 == 0 ? ["correlationId": UUID().uuidString.lowercased(), "actor": "user-\(i)"] : [:]
        }
        let result = try #require(try laidOutAndBack(rows))
        #expect(result.back == rows)
        #expect(try timeColumnBytes(result.columnar) > 0)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
