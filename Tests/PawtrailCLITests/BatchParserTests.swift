import EventLog
import Foundation
@testable import PawtrailCLI
import Testing

@Suite struct BatchParserTests {
    func parse(_ text: String) throws -> AppendRequest {
        try BatchParser.parse(Array(text.utf8))
    }

    func message(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return (error as? CommandFailure)?.message
        }
    }

    @Test func parsesEventsChecksAndKeepsRawData() throws {
        let text = """
            {"stream":"order-1","type":"OrderNoted","data":{"total":12.50,"b":1,"a":2},"eventId":"0E6D6F4A-0000-4000-8000-000000000001","metadata":{"actor":"sam"},"expectedVersion":"no-stream"}

            {"stream":"inventory-litter","type":"StockHeld","data":[1, 2],"expectedVersion":3}
            {"stream":"inventory-litter","type":"StockHeld","data":"x","expectedVersion":"3"}
            {"stream":"pet-1","expectedVersion":"stream-exists","check":true}
            """
        let request = try parse(text)
        #expect(request.entries.count == 3)
        #expect(String(decoding: request.entries[0].event.data, as: UTF8.self) == #"{"total":12.50,"b":1,"a":2}"#)
        #expect(String(decoding: request.entries[1].event.data, as: UTF8.self) == "[1, 2]")
        #expect(request.entries[0].event.id.uuidString.lowercased() == "0e6d6f4a-0000-4000-8000-000000000001")
        #expect(request.entries[0].event.metadata["actor"] == "sam")
        #expect(
            request.expectations == [
                .init(stream: try StreamID("order-1"), expected: .noStream),
                .init(stream: try StreamID("inventory-litter"), expected: .exact(3)),
                .init(stream: try StreamID("pet-1"), expected: .streamExists, checkOnly: true),
            ])
    }

    @Test func aByteOrderMarkMayStartTheFileOnly() throws {
        let line = #"{"stream":"a-1","type":"T","data":{}}"#
        let request = try BatchParser.parse([0xEF, 0xBB, 0xBF] + Array("\(line)\r\n\(line)\n".utf8))
        #expect(request.entries.count == 2)
        let inside = Array("\(line)\n".utf8) + [0xEF, 0xBB, 0xBF] + Array(line.utf8)
        do {
            _ = try BatchParser.parse(inside)
            Issue.record("a byte order mark inside the file was accepted")
        } catch {
            #expect(error.message == "line 2: a byte order mark (EF BB BF) starts the line; only the file's first line may start with one")
        }
    }

    @Test func errorsNameTheLine() {
        #expect(message("{\"stream\":\"a\",\"type\":\"T\",\"data\":{}}\n\n{\"stream\":\"b\",\"type\":\"T\",\"data\":{]}")?.hasPrefix("line 3: invalid JSON") == true)
        #expect(message(#"{"stream":"a b","type":"T","data":{}}"#)?.hasPrefix("line 1: stream id") == true)
        #expect(message(#"{"stream":"a","type":"9T","data":{}}"#)?.hasPrefix("line 1: event type") == true)
        #expect(message(#"{"stream":"a","type":"T"}"#) == #"line 1: missing "data""#)
        #expect(message(#"{"stream":"a","type":"T","data":1,"metadata":{"k":1}}"#)?.hasPrefix("line 1: metadata value") == true)
        #expect(message(#"{"stream":"a","type":"T","data":1,"extra":1}"#)?.hasPrefix("line 1: unknown field \"extra\"") == true)
        #expect(message(#"{"stream":"a","type":"T","data":1,"expectedVersion":-1}"#)?.hasPrefix("line 1: \"expectedVersion\"") == true)
        #expect(message(#"{"stream":"a","type":"T","data":1,"eventId":"nope"}"#)?.hasPrefix("line 1: \"eventId\"") == true)
        #expect(message("[1]")?.hasPrefix("line 1: invalid JSON: expected a JSON object") == true)
        #expect(message("\n \n") == "the batch holds no events and no checks")
    }

    /// A duplicate metadata key is placed by its column in the line, not in the metadata object (a key at
    /// column 57 is reported at 57, not at 10).
    @Test func aDuplicateMetadataKeyNamesItsColumnInTheLine() {
        let line = #"{"stream":"a-1","type":"T","data":1,"metadata":{"a":"1","a":"2"}}"#
        let column = line.utf8.count - #""a":"2"}}"#.utf8.count + 1
        #expect(message(line) == #"line 1: invalid JSON in "metadata": duplicate key "a" (column \#(column))"#)
        #expect(column == 57)
    }

    @Test func oneExpectedVersionPerStream() {
        let same = """
            {"stream":"a","type":"T","data":1,"expectedVersion":2}
            {"stream":"a","type":"T","data":2,"expectedVersion":2}
            """
        #expect(message(same) == nil)
        let different = """
            {"stream":"a","type":"T","data":1,"expectedVersion":2}
            {"stream":"a","type":"T","data":2,"expectedVersion":"any"}
            """
        #expect(message(different)?.hasPrefix("line 2: stream 'a' has expected version any here but 2 on line 1") == true)
    }

    @Test func checkOnlyLinesAreChecks() {
        #expect(message(#"{"stream":"a","check":true}"#)?.contains("needs \"expectedVersion\"") == true)
        #expect(message(#"{"stream":"a","expectedVersion":1,"check":true,"data":1}"#)?.contains("may not have \"data\"") == true)
        let writtenThenChecked = """
            {"stream":"a","type":"T","data":1}
            {"stream":"a","expectedVersion":1,"check":true}
            """
        #expect(message(writtenThenChecked)?.hasPrefix("line 2: stream 'a' is check-only here but written on line 1") == true)
        let checkedThenWritten = """
            {"stream":"a","expectedVersion":1,"check":true}
            {"stream":"a","type":"T","data":1}
            """
        #expect(message(checkedThenWritten)?.hasPrefix("line 2: stream 'a' is written here but check-only on line 1") == true)
    }

    @Test func duplicateEventIDsNameBothLines() {
        let text = """
            {"stream":"a","type":"T","data":1,"eventId":"0e6d6f4a-0000-4000-8000-000000000001"}
            {"stream":"b","type":"T","data":1,"eventId":"0e6d6f4a-0000-4000-8000-000000000001"}
            """
        #expect(message(text)?.hasPrefix("line 2: event id 0e6d6f4a-0000-4000-8000-000000000001 is also used on line 1") == true)
    }

    /// A file large enough to be read in two parts gives the request a reading line by line gives, and names the
    /// lines of its second part by their numbers in the file.
    @Test func aLargeFileReadInTwoPartsIsReadAsOne() throws {
        var lines: [String] = []
        for n in 0..<2_000 {
            let id = String(format: "0e6d6f4a-0000-4000-8000-%012d", n)
            let stream = "order-\(n % 97)"
            let expected = n < 97 ? #","expectedVersion":"no-stream""# : ""
            lines.append(#"{"stream":"\#(stream)","type":"Noted","data":{"n":\#(n),"note":"\#(String(repeating: "é", count: 60))"},"eventId":"\#(id)","metadata":{"actor":"u-\#(n % 5)"}\#(expected)}"#)
            if n % 500 == 7 { lines.append("") }
        }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count >= BatchParser.parallelThreshold, "the test reads a file in two parts")
        let request = try parse(text)
        #expect(request.entries.count == 2_000)
        #expect(request.entries.enumerated().allSatisfy { n, e in String(decoding: e.event.data, as: UTF8.self).hasPrefix("{\"n\":\(n),") })
        #expect(request.entries[1_999].event.id.uuidString.lowercased() == "0e6d6f4a-0000-4000-8000-000000001999")
        #expect(request.expectations.count == 97)
        #expect(request.isValidated)
        // Its first lines, a file small enough to be read in one part, give the same events.
        let small = try parse(lines.prefix(300).joined(separator: "\n"))
        #expect(small.entries.count == 299)
        #expect(small.entries.map(\.event) == Array(request.entries.map(\.event).prefix(299)))

        // A problem late in the file is named by its line in the file; of two problems, the earlier line's.
        var broken = lines
        broken[1_990] = #"{"stream":"order-1","type":"Noted"}"#
        #expect(message(broken.joined(separator: "\n")) == #"line 1991: missing "data""#)
        broken[30] = broken[31]
        #expect(message(broken.joined(separator: "\n"))?.hasPrefix("line 32: event id") == true)
        var conflicting = lines
        conflicting[1_800] = #"{"stream":"order-3","type":"Noted","data":1,"expectedVersion":5}"#
        #expect(message(conflicting.joined(separator: "\n"))?.hasPrefix("line 1801: stream 'order-3' has expected version 5 here but no-stream on line 4") == true)
    }

    /// Event ids are checked by sorting each part's ids: a repeat within either part or across the two is still named
    /// by both its lines, and a problem on an earlier line still comes first.
    @Test func repeatedIDsInALargeFileNameBothLinesInFileOrder() throws {
        var lines: [String] = []
        for n in 0..<2_000 {
            let id = String(format: "0e6d6f4a-0000-4000-8000-%012d", n)
            lines.append(#"{"stream":"s-\#(n % 13)","type":"Noted","data":{"note":"\#(String(repeating: "é", count: 60))"},"eventId":"\#(id)"}"#)
            if n % 400 == 3 { lines.append("\r") }
        }
        func idOf(_ line: Int) -> String { String(lines[line].split(separator: "\"")[17]) }
        let text = lines.joined(separator: "\r\n")
        #expect(text.utf8.count >= BatchParser.parallelThreshold, "the test reads a file in two parts")
        #expect(try parse(text).entries.count == 2_000)
        // Across the parts.
        var across = lines
        across[1_900] = across[1_900].replacingOccurrences(of: idOf(1_900), with: idOf(10))
        #expect(message(across.joined(separator: "\r\n"))?.hasPrefix("line 1901: event id \(idOf(10)) is also used on line 11") == true)
        // Within the second part, twice: the first repeat is named.
        var within = across
        within[1_500] = within[1_500].replacingOccurrences(of: idOf(1_500), with: idOf(1_400))
        #expect(message(within.joined(separator: "\r\n"))?.hasPrefix("line 1501: event id \(idOf(1_400)) is also used on line 1401") == true)
        // A stream problem on an earlier line comes first.
        within[1_200] = #"{"stream":"s-1","check":true,"expectedVersion":1}"#
        let m = message(within.joined(separator: "\r\n"))
        #expect(m?.hasPrefix("line 1201: stream 's-1' is check-only here but written on line") == true, "\(m ?? "")")
    }

    /// The parser tells the planner what it proved (``AppendPlanner/ProvenChecks``) so that a bulk append is not
    /// checked twice; the full check must pass on every batch it accepts, small (read in one part) or large (two).
    @Test func everyAcceptedBatchPassesTheFullCheck() throws {
        var lines: [String] = []
        for n in 0..<3_000 {
            let id = String(format: "0e6d6f4a-0000-4000-8000-%012d", n)
            let expected = n % 7 == 0 ? #","expectedVersion":\#(n % 91)"# : ""
            lines.append(#"{"stream":"s-\#(n % 91)","type":"Noted","data":{"note":"\#(String(repeating: "é", count: 40))"},"eventId":"\#(id)","metadata":{"actor":"u-\#(n)"}\#(expected)}"#)
            if n % 500 == 0 { lines.append(#"{"stream":"c-\#(n)","expectedVersion":"stream-exists","check":true}"#) }
        }
        for text in [lines.prefix(40).joined(separator: "\n"), lines.joined(separator: "\n")] {
            let parsed: AppendRequest
            do { parsed = try parse(text) } catch { parsed = AppendRequest(entries: [], expectations: []); Issue.record("\(error)") }
            #expect(parsed.isValidated)
            #expect(!parsed.entries.isEmpty)
            try AppendPlanner.validate(AppendRequest(entries: parsed.entries, expectations: parsed.expectations))
        }
    }
}
